/**
 * Mapping between EventStoreDB records and the port's RecordedEvent, and the position decision.
 *
 * POSITION. ESDB gives every event a {commit, prepare} pair of byte offsets into its transaction log. Appends made
 * through gRPC (every append this adapter makes, single- or multi-event) are written as "self-committed" prepare
 * records: each event of the batch is its own log record and its position is {commit: its own log position,
 * prepare: the same}. The server code shows it: the index committer publishes EventCommitted(prepare.LogPosition)
 * per event of an implicit transaction, AllReader returns CommitEventRecord(event, prepare.LogPosition) for
 * commit-alike prepares, and ResolvedEvent.CalculatePosition returns TFPos(LogPosition, LogPosition) for
 * self-committed events, so even stream reads carry it (servers >= 22.6). Hence `position = Number(commit)`:
 *  - strictly increasing per event in $all order (log offsets of distinct records), also inside one append;
 *  - a safe integer (a log offset below 2^53 bytes = 8 PiB);
 *  - resumable: {commit: p, prepare: p} names exactly that event, so readAll/subscribeToAll restart from it
 *    (reads from a position are inclusive, subscriptions exclusive; both adapters' callers get "strictly after",
 *    enforced here by skipping positions <= the checkpoint).
 * Only the legacy TCP-era explicit transactions shared one commit position between events; this adapter never
 * writes them, and an event without a usable position fails loudly instead of producing a wrong checkpoint.
 */
import type { EventData, RecordedEvent, RecordedMetadata } from '../event-store.port';

/*
 * Structural views of the client's Position and RecordedEvent: the client's own types are assignable to them, and
 * esdb-event-store.ts stays the only file that imports @kurrent/kurrentdb-client.
 */
export interface Position {
  commit: bigint;
  prepare: bigint;
}

export interface EsdbRecordedEvent {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  isJson: boolean;
  data: unknown;
  metadata?: unknown;
  position?: Position;
}

/** The client reports "no position" as -1 read as an unsigned 64-bit integer. */
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A single safe integer from an ESDB position, or null when the server did not report a usable one. */
export function toPositionNumber(position: Position | undefined): number | null {
  if (!position || position.commit <= 0n || position.commit > MAX_SAFE) return null;
  return Number(position.commit);
}

export function requirePosition(event: { position?: Position; streamId: string; revision: bigint }): number {
  const position = toPositionNumber(event.position);
  if (position === null) {
    throw new Error(
      `EventStoreDB returned no usable log position for ${event.streamId}@${event.revision}: ` +
        'Cairn needs a server that reports positions on reads (EventStoreDB/KurrentDB >= 22.6)',
    );
  }
  return position;
}

/** The ESDB position named by a port position. */
export function toEsdbPosition(position: number): Position {
  const value = BigInt(position);
  return { commit: value, prepare: value };
}

/** System streams ($...) and system event types ($..., including links "$>") are never Cairn's. */
export function isSystemEvent(event: { streamId: string; type: string }): boolean {
  return event.streamId.startsWith('$') || event.type.startsWith('$');
}

/**
 * An event Cairn wrote: not a system event or link, a JSON object, with hash-chain metadata. Anything else in $all
 * (another application's events, links from the standard projections) is skipped by every $all reader, so one
 * foreign event never stops the projections. Stream reads still refuse it (see toRecorded()): a foreign event
 * inside a Cairn stream is evidence for audit:verify, not something to step over.
 */
export function isCairnEvent(event: EsdbRecordedEvent): boolean {
  if (isSystemEvent(event) || !event.isJson || !isRecord(event.data)) return false;
  const metadata: unknown = event.metadata;
  return isRecord(metadata) && typeof metadata.hash === 'string' && typeof metadata.prev_hash === 'string';
}

export function toRecorded(event: EsdbRecordedEvent, position: number): RecordedEvent {
  if (!event.isJson || !isRecord(event.data)) {
    throw new Error(
      `event ${event.streamId}@${event.revision} is not a JSON object event: not written by Cairn`,
    );
  }
  return {
    event_id: event.id,
    stream: event.streamId,
    revision: Number(event.revision),
    position,
    type: event.type,
    data: event.data as EventData,
    metadata: toRecordedMetadata(event),
  };
}

/** The hash of an event's metadata (the chain link the next append continues from). */
export function hashOf(event: EsdbRecordedEvent): string {
  return toRecordedMetadata(event).hash;
}

function toRecordedMetadata(event: EsdbRecordedEvent): RecordedMetadata {
  const metadata: unknown = event.metadata;
  if (!isRecord(metadata) || typeof metadata.hash !== 'string' || typeof metadata.prev_hash !== 'string') {
    throw new Error(
      `event ${event.streamId}@${event.revision} has no hash-chain metadata: not written by Cairn`,
    );
  }
  return metadata as unknown as RecordedMetadata;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array)
  );
}
