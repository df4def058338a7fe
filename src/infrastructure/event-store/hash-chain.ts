import { createHash } from 'node:crypto';
import { canonicalize } from 'json-canonicalize';
import type { EventData, EventMetadata, RecordedMetadata } from './event-store.port';

/** prev_hash of the first event of every stream. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields a link of the chain covers: everything an auditor cares about except the global position. */
export interface ChainedFields {
  event_id: string;
  stream: string;
  revision: number;
  type: string;
  data: EventData;
  metadata: EventMetadata;
  prev_hash: string;
}

/**
 * SHA-256 (hex) of the RFC 8785 canonical JSON of the event. Any edit to the event id, stream, revision, type,
 * data or metadata, or a reordering/removal of events, changes a hash or breaks a prev_hash link.
 */
export function hashEvent(fields: ChainedFields): string {
  const { prev_hash, metadata, ...rest } = fields;
  const metadataOnly = stripChain(metadata);
  return createHash('sha256')
    .update(canonicalize({ ...rest, metadata: metadataOnly, prev_hash }))
    .digest('hex');
}

/** The caller-supplied metadata, without chain fields (safe to pass RecordedMetadata). */
export function stripChain(metadata: EventMetadata | RecordedMetadata): EventMetadata {
  const { organization_id, correlation_id, causation_id, actor, occurred_at, schema_version } = metadata;
  return { organization_id, correlation_id, causation_id, actor, occurred_at, schema_version };
}

/** An event with its place in the stream and its chain fields. */
export type ChainedEvent<E> = E & { revision: number; metadata: RecordedMetadata };

/** Computes prev_hash/hash for a batch about to be appended after `prevHash` at `firstRevision`. */
export function chainBatch<
  E extends { event_id: string; type: string; data: EventData; metadata: EventMetadata },
>(stream: string, firstRevision: number, prevHash: string, events: E[]): Array<ChainedEvent<E>> {
  let previous = prevHash;
  return events.map((event, index) => {
    const revision = firstRevision + index;
    const metadata = stripChain(event.metadata);
    const hash = hashEvent({
      event_id: event.event_id,
      stream,
      revision,
      type: event.type,
      data: event.data,
      metadata,
      prev_hash: previous,
    });
    const chained = { ...event, revision, metadata: { ...metadata, prev_hash: previous, hash } };
    previous = hash;
    return chained;
  });
}

/** A break found by verifyChain. */
export interface ChainBreak {
  stream: string;
  revision: number;
  event_id: string;
  reason: 'hash_mismatch' | 'prev_hash_mismatch' | 'revision_gap';
}

/** Verifies one stream's events (forward order). Returns the first broken link or null. */
export function verifyChain(
  events: Array<{
    event_id: string;
    stream: string;
    revision: number;
    type: string;
    data: EventData;
    metadata: RecordedMetadata;
  }>,
): ChainBreak | null {
  let previous = GENESIS_HASH;
  for (let index = 0; index < events.length; index++) {
    const event = events[index];
    const at = { stream: event.stream, revision: event.revision, event_id: event.event_id };
    if (event.revision !== index) return { ...at, reason: 'revision_gap' };
    if (event.metadata.prev_hash !== previous) return { ...at, reason: 'prev_hash_mismatch' };
    const { event_id, stream, revision, type, data, metadata } = event;
    const expected = hashEvent({ event_id, stream, revision, type, data, metadata, prev_hash: previous });
    if (expected !== event.metadata.hash) return { ...at, reason: 'hash_mismatch' };
    previous = event.metadata.hash;
  }
  return null;
}
