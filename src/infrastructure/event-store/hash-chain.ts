import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';
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
  const canonical = canonicalJson({ ...rest, metadata: metadataOnly, prev_hash });
  // Unreachable for an object (only a top-level undefined or function gives undefined), kept for the type.
  if (canonical === undefined) throw new TypeError('an event is not JSON');
  return createHash('sha256').update(canonical).digest('hex');
}

/** The caller's metadata keys, in the order appends write them (stripChain); the chain links follow them. */
export const CALLER_METADATA_KEYS = [
  'organization_id',
  'correlation_id',
  'causation_id',
  'actor',
  'occurred_at',
  'schema_version',
] as const satisfies ReadonlyArray<keyof EventMetadata>;

/** Every key a recorded event's metadata may hold: the caller's, the stream chain's and the log chain's. */
const METADATA_KEYS = new Set<string>([
  ...CALLER_METADATA_KEYS,
  'prev_hash',
  'hash',
  'global_prev_hash',
  'global_hash',
]);

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

/** A break in a stream's chain. */
export interface ChainBreak {
  stream: string;
  revision: number;
  event_id: string;
  /**
   * revision_gap: the revision is not the stream's next one (a gap, a duplicate, a negative or moved event);
   * pruned_without_record: a pruned recall trace that no retention event lists (pruned-traces.ts);
   * pruned_stub_edited: a pruned trace whose stub is not the one its retention event listed (stub_hashes);
   * unreadable: its stored row cannot be decoded (StoredEventUnreadableError), so its hash cannot be recomputed.
   */
  reason:
    | 'hash_mismatch'
    | 'prev_hash_mismatch'
    | 'revision_gap'
    | 'pruned_without_record'
    | 'pruned_stub_edited'
    | 'unreadable';
  /** What could not be decoded (unreadable). */
  unreadable?: { part: 'data' | 'metadata'; cause: string };
  /** The revision the stream's next event must have (revision_gap). */
  expected_revision?: number;
  /** Where the event is in the global order (breaks found in the log pass). */
  position?: number;
}

/** An event as the chain sees it. */
export interface ChainableEvent {
  event_id: string;
  stream: string;
  revision: number;
  type: string;
  data: EventData;
  metadata: RecordedMetadata;
}

/** What is known of a stream after its events so far: how many, and its last event's hash (recomputed). */
export interface StreamHead {
  events: number;
  hash: string;
  /** The last event's position in the global order (0 when not read in the global order). */
  position: number;
}

/**
 * Checks the next event of `head`'s stream (null: none yet) and returns its new head, or the break. The event must
 * be the stream's next revision (0 first), link to the previous event's hash, and hash to its stored `hash` when
 * recomputed from its content.
 */
export function nextInChain(
  head: StreamHead | null,
  event: ChainableEvent,
  position = 0,
  /** A pruned trace (pruned-traces.ts, the caller checks it is listed): its stored hash stands for its content. */
  storedHash = false,
): StreamHead | ChainBreak {
  const at = { stream: event.stream, revision: event.revision, event_id: event.event_id };
  const expected = head?.events ?? 0;
  if (event.revision !== expected) return { ...at, reason: 'revision_gap', expected_revision: expected };
  const previous = head?.hash ?? GENESIS_HASH;
  if (event.metadata.prev_hash !== previous) return { ...at, reason: 'prev_hash_mismatch' };
  // A key the hash does not cover (stripChain) would read as the event's own without breaking its hash.
  if (Object.keys(event.metadata).some((key) => !METADATA_KEYS.has(key)))
    return { ...at, reason: 'hash_mismatch' };
  if (storedHash) return { events: expected + 1, hash: event.metadata.hash, position };
  const { event_id, stream, revision, type, data, metadata } = event;
  const hash = hashEvent({ event_id, stream, revision, type, data, metadata, prev_hash: previous });
  if (hash !== event.metadata.hash) return { ...at, reason: 'hash_mismatch' };
  return { events: expected + 1, hash, position };
}

/** Verifies one stream's events (forward order). Returns the first broken link or null. */
export function verifyChain(events: ChainableEvent[]): ChainBreak | null {
  let head: StreamHead | null = null;
  for (const event of events) {
    const next = nextInChain(head, event);
    if ('reason' in next) return next;
    head = next;
  }
  return null;
}
