/**
 * The production EventStore over KurrentDB / EventStoreDB (gRPC, @kurrent/kurrentdb-client). The only file that
 * imports the client. Positions: see esdb-mapping.ts.
 *
 * Appends keep the per-stream hash chain unforkable: read the stream's last event, chain the batch onto its
 * hash, then append with expectedRevision = exactly the revision just read (or NO_STREAM). If another writer got
 * in between, the server rejects the append, so two batches can never both claim the same prev_hash. When the
 * caller said 'any' / 'stream_exists' the adapter re-reads and retries, with a jittered backoff, for as long as
 * APPEND_RETRY_MS (every lost race is another writer's success, so a busy stream still moves); for an exact
 * revision or 'no_stream' the caller's expectation is what failed, so it gets WrongExpectedVersionError.
 *
 * $all readers (readAll, subscribeToAll, headPosition, listStreams) skip every event Cairn did not write (see
 * isCairnEvent()). An append over the server's MaxAppendSize is an AppendTooLargeError, as on the embedded store.
 */
import {
  BACKWARDS,
  END,
  KurrentDBClient,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  MaxAppendSizeExceededError,
  NO_STREAM,
  START,
  StreamDeletedError,
  StreamNotFoundError,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '../event-store.port';
import { AppendTooLargeError } from '../append-too-large.error';
import { chainBatch, GENESIS_HASH } from '../hash-chain';
import { checkExpected, prepareBatch } from '../new-event-batch';
import { WrongExpectedVersionError } from '../wrong-expected-version.error';
import {
  hashOf,
  isCairnEvent,
  requirePosition,
  toEsdbPosition,
  toPositionNumber,
  toRecorded,
  type EsdbRecordedEvent,
  type Position,
} from './esdb-mapping';
import { toKurrentConnectionString } from './connection-string';
import { EsdbSubscription } from './esdb-subscription';

/** How long an 'any' / 'stream_exists' append keeps re-reading after lost races before it gives up. */
export const APPEND_RETRY_MS = 10_000;
const RETRY_BACKOFF_MAX_MS = 50;
const ALL_PAGE = 1000;
const HEAD_PAGE = 100;

/** The part of the client this adapter uses (a test passes a stub of it; production always the real client). */
export type EsdbClient = Pick<
  KurrentDBClient,
  'appendToStream' | 'readStream' | 'readAll' | 'subscribeToAll' | 'dispose'
>;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class EsdbEventStore implements EventStore {
  private readonly client: EsdbClient;
  private readonly subscriptions = new Set<EsdbSubscription>();

  /** @param connection e.g. `kurrentdb://localhost:2113?tls=false` (or `esdb://…`), or a client (request-level tests). */
  constructor(connection: string | EsdbClient) {
    this.client =
      typeof connection === 'string'
        ? KurrentDBClient.connectionString(toKurrentConnectionString(connection))
        : connection;
  }

  async append(
    stream: string,
    events: NewEvent[],
    expected: ExpectedRevision,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    if (options.within)
      throw new Error('EventStoreDB appends cannot run writes of another store in their commit');
    const prepared = prepareBatch(stream, events, expected);
    const deadline = Date.now() + APPEND_RETRY_MS;
    for (let attempt = 1; ; attempt++) {
      const last = await this.readLast(stream);
      const actual = last === null ? null : Number(last.revision);
      checkExpected(stream, expected, actual);
      const firstRevision = actual === null ? 0 : actual + 1;
      const chained = chainBatch(
        stream,
        firstRevision,
        last === null ? GENESIS_HASH : hashOf(last),
        prepared,
      );
      const payload = chained.map((event) =>
        jsonEvent({
          id: event.event_id,
          type: event.type,
          data: event.data,
          metadata: { ...event.metadata },
        }),
      );
      try {
        const result = await this.client.appendToStream(stream, payload, {
          streamState: last === null ? NO_STREAM : last.revision,
        });
        const next = Number(result.nextExpectedRevision);
        return {
          next_expected_revision: next,
          position: await this.appendedPosition(stream, result.position),
        };
      } catch (error) {
        if (error instanceof MaxAppendSizeExceededError) {
          throw new AppendTooLargeError(stream, null, error.maxAppendSize);
        }
        if (!(error instanceof EsdbWrongExpectedVersionError)) throw error;
        const retryable = expected === 'any' || expected === 'stream_exists';
        if (retryable && Date.now() < deadline) {
          await sleep(Math.random() * Math.min(RETRY_BACKOFF_MAX_MS, attempt * 2));
          continue;
        }
        const current = error.actualState;
        throw new WrongExpectedVersionError(
          stream,
          expected,
          typeof current === 'bigint' ? Number(current) : null,
        );
      }
    }
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    if (options.max_count !== undefined && options.max_count <= 0) return [];
    const backward = options.direction === 'backward';
    const from = options.from_revision;
    const events = await this.readStreamRaw(stream, {
      direction: backward ? BACKWARDS : FORWARDS,
      fromRevision: from !== undefined ? BigInt(from) : backward ? END : START,
      ...(options.max_count !== undefined ? { maxCount: options.max_count } : {}),
    });
    return events.map((event) => toRecorded(event, requirePosition(event)));
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.max_count ?? Number.POSITIVE_INFINITY;
    const out: RecordedEvent[] = [];
    let checkpoint = options.after_position ?? 0;
    while (out.length < limit) {
      // Reads from a position include the event at that position: skip everything <= checkpoint.
      const page = await this.readAllPage(
        checkpoint > 0 ? toEsdbPosition(checkpoint) : START,
        FORWARDS,
        ALL_PAGE,
      );
      let progressed = false;
      for (const event of page) {
        const position = requirePosition(event);
        if (position <= checkpoint) continue;
        checkpoint = position;
        progressed = true;
        if (!isCairnEvent(event)) continue;
        out.push(toRecorded(event, position));
        if (out.length >= limit) break;
      }
      if (page.length < ALL_PAGE || !progressed) break;
    }
    return out;
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    const source = this.client.subscribeToAll({
      fromPosition: options.after_position > 0 ? toEsdbPosition(options.after_position) : START,
      // Server-side filter on event types; system streams with ordinary types are skipped client-side.
      filter: excludeSystemEvents(),
    });
    const subscription = new EsdbSubscription(source, options, (ended) => this.subscriptions.delete(ended));
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** The position of the newest Cairn event: $all read backwards past any other events at the end. */
  async headPosition(): Promise<number> {
    let from: Position | typeof END = END;
    for (;;) {
      const page = await this.readAllPage(from, BACKWARDS, HEAD_PAGE);
      const found = page.find(isCairnEvent);
      if (found) return requirePosition(found);
      if (page.length < HEAD_PAGE) return 0;
      // Reading backwards from an event's position starts just before that event.
      const next = requirePosition(page[page.length - 1]);
      if (from !== END && BigInt(next) >= from.commit)
        throw new Error('EventStoreDB backward read made no progress');
      from = toEsdbPosition(next);
    }
  }

  /**
   * Streams in order of first appearance, by scanning $all for revision-0 events. This is O(all events) (it is
   * for audit:verify, which reads every stream anyway). Chosen over the $streams system projection because that
   * projection only exists when the server runs system projections, which is off by default.
   */
  async *listStreams(): AsyncIterable<string> {
    let checkpoint = 0;
    for (;;) {
      const page = await this.readAllPage(
        checkpoint > 0 ? toEsdbPosition(checkpoint) : START,
        FORWARDS,
        ALL_PAGE,
      );
      let progressed = false;
      for (const event of page) {
        const position = requirePosition(event);
        if (position <= checkpoint) continue;
        checkpoint = position;
        progressed = true;
        if (event.revision === 0n && isCairnEvent(event)) yield event.streamId;
      }
      if (page.length < ALL_PAGE || !progressed) return;
    }
  }

  /** A read of a (normally absent) stream: succeeds, or "not found", whenever the server answers. */
  async ping(): Promise<void> {
    await this.readStreamRaw('cairn-ping', { maxCount: 1 });
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.client.dispose();
  }

  /** The stream's last event, or null when the stream does not exist. */
  private async readLast(stream: string): Promise<EsdbRecordedEvent | null> {
    const [last] = await this.readStreamRaw(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 });
    return last ?? null;
  }

  /**
   * The position of the last event of an append. The append result carries it (the position of the batch's
   * final, self-committed record); should a server omit it, read the stream's last event back.
   */
  private async appendedPosition(stream: string, position: Position | undefined): Promise<number> {
    const reported = toPositionNumber(position);
    if (reported !== null) return reported;
    const last = await this.readLast(stream);
    if (last === null) throw new Error(`stream ${stream} is empty right after an append`);
    return requirePosition(last);
  }

  private async readStreamRaw(
    stream: string,
    options: Parameters<KurrentDBClient['readStream']>[1],
  ): Promise<EsdbRecordedEvent[]> {
    const events: EsdbRecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(stream, options)) {
        if (resolved.event) events.push(resolved.event);
      }
    } catch (error) {
      // A deleted stream (soft-deleted: not found; hard-deleted: a tombstone) reads as [] like an unknown one, so
      // audit:verify's stream pass reports it against the events $all still holds, instead of stopping on it.
      if (error instanceof StreamNotFoundError || error instanceof StreamDeletedError) return [];
      throw error;
    }
    return events;
  }

  private async readAllPage(
    from: Position | typeof START | typeof END,
    direction: typeof FORWARDS | typeof BACKWARDS,
    maxCount: number,
  ): Promise<EsdbRecordedEvent[]> {
    const events: EsdbRecordedEvent[] = [];
    for await (const resolved of this.client.readAll({ fromPosition: from, direction, maxCount })) {
      if (resolved.event) events.push(resolved.event);
    }
    return events;
  }
}
