/**
 * An in-memory stand-in for the part of @kurrent/kurrentdb-client's KurrentDBClient that EsdbEventStore uses, for
 * request-level tests: it records every call with its options, keeps streams and $all like the server (positions
 * as log offsets, inclusive reads from a position, exclusive subscriptions), answers a stale expected revision
 * with the client's own WrongExpectedVersionError and an oversized append with its MaxAppendSizeExceededError, and
 * lets a test lose races, inject foreign events and drop subscriptions.
 */
import {
  BACKWARDS,
  END,
  MaxAppendSizeExceededError,
  NO_STREAM,
  START,
  StreamDeletedError,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import type { EsdbClient } from '../../src/infrastructure/event-store/esdb/esdb-event-store';
import type { EsdbRecordedEvent, Position } from '../../src/infrastructure/event-store/esdb/esdb-mapping';

export interface AppendCall {
  stream: string;
  events: Array<{ id: string; type: string; data: unknown; metadata: unknown; contentType: string }>;
  streamState: unknown;
}

type From = Position | typeof START | typeof END | bigint;

interface ReadOptions {
  direction?: unknown;
  fromRevision?: From;
  fromPosition?: From;
  maxCount?: number | bigint;
}

function byteSize(event: { type: string; data: unknown; metadata: unknown }): number {
  return (
    event.type.length * 2 +
    Buffer.byteLength(JSON.stringify(event.data)) +
    Buffer.byteLength(JSON.stringify(event.metadata))
  );
}

export class EsdbClientStub {
  readonly appends: AppendCall[] = [];
  readonly log: EsdbRecordedEvent[] = [];
  /** Appends to refuse as lost races (another writer appended first: the stream really moves on). */
  racesToLose = 0;
  maxAppendSize = 1024 * 1024;
  /** Subscriptions end with this error after delivering this many events (then clear). */
  dropAfter: { events: number; error: Error } | undefined;
  private nextPosition = 1000n;
  /** Streams deleted as the server does: soft (reads as not found, $all keeps the events until a scavenge), hard
   * (a tombstone: reads fail with StreamDeletedError), or truncated before a revision ($tb). */
  private readonly softDeleted = new Set<string>();
  private readonly tombstoned = new Set<string>();
  private readonly truncatedBefore = new Map<string, bigint>();
  disposed = false;

  asClient(): EsdbClient {
    // The stub implements only what the adapter calls; its results are structurally what the adapter reads.
    return this as unknown as EsdbClient;
  }

  /** Writes an event as another application (or a server projection) would: no Cairn metadata. */
  writeForeign(event: Partial<EsdbRecordedEvent> & { streamId: string; type: string }): void {
    this.record({ isJson: true, data: {}, metadata: undefined, ...event });
  }

  appendToStream(
    stream: string,
    events: Array<{ id: string; type: string; data: unknown; metadata: unknown; contentType: string }>,
    options: { streamState: unknown },
  ): Promise<{ nextExpectedRevision: bigint; position: Position; success: true }> {
    this.appends.push({ stream, events, streamState: options.streamState });
    const size = events.reduce((total, event) => total + byteSize(event), 0);
    if (size > this.maxAppendSize)
      return Promise.reject(new MaxAppendSizeExceededError(undefined, this.maxAppendSize));
    if (this.racesToLose > 0) {
      this.racesToLose -= 1;
      // Another writer's event lands first.
      const current = this.lastOf(stream);
      this.record({
        streamId: stream,
        type: 'Raced',
        isJson: true,
        data: {},
        metadata: { hash: 'f'.repeat(64), prev_hash: current?.metadata ? 'x' : '0'.repeat(64) },
      });
    }
    const last = this.lastOf(stream);
    const current = last === undefined ? NO_STREAM : last.revision;
    if (options.streamState !== current) {
      return Promise.reject(
        new WrongExpectedVersionError(undefined, {
          streamName: stream,
          expected: options.streamState as bigint,
          current: current === NO_STREAM ? NO_STREAM : (current as bigint),
        }),
      );
    }
    let recorded: EsdbRecordedEvent | undefined;
    for (const event of events) {
      recorded = this.record({
        streamId: stream,
        id: event.id,
        type: event.type,
        isJson: true,
        data: event.data,
        metadata: event.metadata,
      });
    }
    return Promise.resolve({
      success: true,
      nextExpectedRevision: recorded?.revision ?? 0n,
      position: recorded?.position as Position,
    });
  }

  /** `deleteStream`: soft (the default) or hard (tombstone). */
  deleteStream(stream: string, hard = false): void {
    (hard ? this.tombstoned : this.softDeleted).add(stream);
  }

  /** `$tb` metadata: reads start at `before`; $all keeps the older events until a scavenge. */
  truncateStream(stream: string, before: bigint): void {
    this.truncatedBefore.set(stream, before);
  }

  /** A scavenge: events of deleted streams and before a `$tb` leave $all for good (positions unchanged). */
  scavenge(): void {
    const kept = this.log.filter(
      (event) =>
        !this.softDeleted.has(event.streamId) &&
        !this.tombstoned.has(event.streamId) &&
        event.revision >= (this.truncatedBefore.get(event.streamId) ?? 0n),
    );
    this.log.splice(0, this.log.length, ...kept);
    // A scavenged soft-deleted stream's name is free again: a later append re-creates it.
    this.softDeleted.clear();
  }

  /** Appends raw records as they were (ids, data, metadata), at new positions: a stream re-created by copy. */
  rewrite(events: EsdbRecordedEvent[]): void {
    for (const { revision: _r, position: _p, ...event } of events) this.record(event);
  }

  readStream(stream: string, options: ReadOptions = {}): AsyncIterable<{ event: EsdbRecordedEvent }> {
    if (this.tombstoned.has(stream)) return this.failing(StreamDeletedError.fromStreamName(stream));
    const before = this.truncatedBefore.get(stream) ?? 0n;
    const events = this.softDeleted.has(stream)
      ? []
      : this.log.filter((event) => event.streamId === stream && event.revision >= before);
    if (events.length === 0) return this.failing(new StreamNotFoundError(undefined, stream));
    const backward = options.direction === BACKWARDS;
    const from = options.fromRevision;
    let selected = backward ? [...events].reverse() : events;
    if (typeof from === 'bigint') {
      selected = selected.filter((event) => (backward ? event.revision <= from : event.revision >= from));
    }
    return this.iterate(selected.slice(0, Number(options.maxCount ?? Number.MAX_SAFE_INTEGER)));
  }

  readAll(options: ReadOptions = {}): AsyncIterable<{ event: EsdbRecordedEvent }> {
    const backward = options.direction === BACKWARDS;
    const from = options.fromPosition;
    let selected = backward ? [...this.log].reverse() : this.log;
    if (typeof from === 'object' && from !== null && 'commit' in from) {
      const at = from.commit;
      // Forwards from a position includes it; backwards starts just before it.
      selected = selected.filter((event) =>
        backward ? event.position!.commit < at : event.position!.commit >= at,
      );
    }
    return this.iterate(selected.slice(0, Number(options.maxCount ?? Number.MAX_SAFE_INTEGER)));
  }

  subscribeToAll(options: { fromPosition?: From } = {}): AsyncIterable<{ event: EsdbRecordedEvent }> & {
    unsubscribe(): Promise<void>;
    destroy(): void;
  } {
    const from = options.fromPosition;
    const after = typeof from === 'object' && from !== null && 'commit' in from ? from.commit : -1n;
    const log = this.log;
    const drop = this.dropAfter;
    this.dropAfter = undefined;
    let closed = false;
    return {
      async *[Symbol.asyncIterator]() {
        let delivered = 0;
        for (let n = 0; !closed;) {
          if (n < log.length) {
            const event = log[n++];
            if (event.position!.commit <= after) continue;
            if (drop !== undefined && delivered === drop.events) throw drop.error;
            delivered += 1;
            yield { event };
          } else await new Promise((resolve) => setTimeout(resolve, 2));
        }
      },
      unsubscribe: async () => {
        closed = true;
      },
      destroy: () => {
        closed = true;
      },
    };
  }

  dispose(): Promise<void> {
    this.disposed = true;
    return Promise.resolve();
  }

  private lastOf(stream: string): EsdbRecordedEvent | undefined {
    return this.log.filter((event) => event.streamId === stream).at(-1);
  }

  private record(
    event: Omit<EsdbRecordedEvent, 'revision' | 'position' | 'id'> & { id?: string },
  ): EsdbRecordedEvent {
    const previous = this.lastOf(event.streamId);
    this.nextPosition += 100n;
    const recorded: EsdbRecordedEvent = {
      ...event,
      id: event.id ?? `00000000-0000-4000-8000-${String(this.log.length).padStart(12, '0')}`,
      revision: previous === undefined ? 0n : previous.revision + 1n,
      position: { commit: this.nextPosition, prepare: this.nextPosition },
    };
    this.log.push(recorded);
    return recorded;
  }

  private async *iterate(events: EsdbRecordedEvent[]): AsyncIterable<{ event: EsdbRecordedEvent }> {
    for (const event of events) yield { event };
  }

  private async *failing(error: Error): AsyncIterable<{ event: EsdbRecordedEvent }> {
    yield* [];
    throw error;
  }
}
