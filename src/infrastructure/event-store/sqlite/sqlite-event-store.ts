/**
 * The embedded EventStore: one `events` table in the shared SQLite file (WAL). Several processes may append to
 * the same file: every append is ONE `BEGIN IMMEDIATE` transaction (the write lock is taken before the stream's
 * last revision is read, so check-then-insert cannot interleave with another writer), and UNIQUE(stream, revision)
 * is the backstop should anything else ever write the table. With a WalFlusher, commits do not wait for the
 * disk inside the write lock; the append is acknowledged after a shared WAL sync instead (group commit).
 * An append larger than `maxAppendBytes` (default 1 MiB, KurrentDB's default MaxAppendSize) is refused with
 * AppendTooLargeError, counted as KurrentDB counts it (append-too-large.error.ts), so what passes here passes there.
 */
import type {
  AppendOptions,
  AppendResult,
  EventData,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
  TypedRead,
  TypedReadOptions,
} from '../event-store.port';
import { StoredEventUnreadableError } from '../../../common/errors';
import { AppendTooLargeError, appendSize, DEFAULT_MAX_APPEND_BYTES } from '../append-too-large.error';
import { chainBatch, GENESIS_HASH, type ChainedEvent } from '../hash-chain';
import { linkHash } from '../log-chain';
import { checkExpected, prepareBatch, type PreparedEvent } from '../new-event-batch';
import { WrongExpectedVersionError } from '../wrong-expected-version.error';
import { isSqliteUniqueViolation, type SqliteDatabase } from '../../sqlite/sqlite-connection';
import { prepareTraceRows, type TraceRows } from './sqlite-trace-rows';
import { PollingSubscription } from './sqlite-subscription';
import type { WalFlusher } from '../../sqlite/wal-flusher';
import { WriteLock } from '../../sqlite/write-lock';
import { prepareEventStatements, STREAMS_PAGE, type Row, type Statements } from './sqlite-event-statements';
import { AppendHeads, type StreamHead } from './append-heads';
import { compressFrom, encodePayload, parsePayload } from './event-payload';
import { decodeMetadata, encodeMetadata } from './event-metadata';
import { readOfTypes, TYPED_READ_WINDOW } from './sqlite-typed-reads';

/**
 * Appends acknowledged once committed (`durability: 'committed'`) are synced to disk within this time, together:
 * one sync per window instead of one per append.
 */
export const COMMITTED_SYNC_WITHIN_MS = 100;

/**
 * A batch chained outside the write lock, after the stream's last event as read then (null: none), with each
 * event's metadata column (its link into the log chain has columns of its own), so that linking it in the lock is
 * a hash per event.
 */
type ChainGuess = {
  after: { revision: number; hash: unknown } | null;
  chained: Array<ChainedEvent<StoredEvent>>;
  metadataColumns: Array<string | Buffer>;
} | null;

/**
 * One AppendHeads per connection, shared by every store appending through it: data_version does not change for a
 * connection's own commits, so two stores on one connection must see each other's heads.
 */
const headsByConnection = new WeakMap<SqliteDatabase, AppendHeads>();

function appendHeadsOf(db: SqliteDatabase): AppendHeads {
  let heads = headsByConnection.get(db);
  if (heads === undefined) {
    const dataVersion = db.prepare('PRAGMA data_version').pluck();
    headsByConnection.set(db, (heads = new AppendHeads(() => dataVersion.get() as number)));
  }
  return heads;
}

/** An append as committed: its result and the heads it left (append-heads.ts). */
interface LockedAppend {
  result: AppendResult;
  streamHead: StreamHead;
  logHead: string;
}

/** An event's link into the log chain (log-chain.ts), as stored: 32 bytes each. */
interface StoredLink {
  prev: Buffer;
  hash: Buffer;
}

/** A prepared event with its `data` column value (event-payload.ts), computed before the write lock is taken. */
type StoredEvent = PreparedEvent & { storedData: string | Buffer };

export interface SqliteEventStoreOptions {
  /** How often subscriptions look for events appended by other processes (default 25 ms). */
  pollIntervalMs?: number;
  /**
   * With a connection on synchronous=NORMAL: appends resolve only after this flush (group commit). Without it
   * the connection's own synchronous setting is the whole durability.
   */
  flusher?: WalFlusher;
  /** The largest append accepted, in bytes (default DEFAULT_MAX_APPEND_BYTES, 1 MiB). */
  maxAppendBytes?: number;
  /** How many positions a typed read looks through at most (default TYPED_READ_WINDOW). */
  typedReadWindow?: number;
}

export class SqliteEventStore implements EventStore {
  private readonly statements: Statements;
  private readonly appendTransaction: (
    stream: string,
    events: StoredEvent[],
    expected: ExpectedRevision,
    guess: ChainGuess,
    within: (() => void) | undefined,
  ) => AppendResult;
  private readonly subscriptions = new Set<PollingSubscription>();
  private readonly pollIntervalMs: number;
  private readonly flusher: WalFlusher | null;
  private readonly maxAppendBytes: number;
  private readonly typedReadWindow: number;
  private closed = false;
  private readonly traces: TraceRows;
  /** The heads this connection's appends left (append-heads.ts): not read again while no other connection commits. */
  private readonly heads: AppendHeads;

  constructor(db: SqliteDatabase, options: SqliteEventStoreOptions = {}) {
    this.pollIntervalMs = options.pollIntervalMs ?? 25;
    this.flusher = options.flusher ?? null;
    this.maxAppendBytes = options.maxAppendBytes ?? DEFAULT_MAX_APPEND_BYTES;
    this.typedReadWindow = options.typedReadWindow ?? TYPED_READ_WINDOW;
    if (!Number.isSafeInteger(this.typedReadWindow) || this.typedReadWindow < 1) {
      throw new RangeError(`typedReadWindow must be a positive integer, got ${this.typedReadWindow}`);
    }
    this.statements = prepareEventStatements(db);
    this.heads = appendHeadsOf(db);
    const transaction = db.transaction(
      (
        stream: string,
        events: StoredEvent[],
        expected: ExpectedRevision,
        guess: ChainGuess,
        within: (() => void) | undefined,
      ): LockedAppend => {
        const locked = this.appendLocked(stream, events, expected, guess);
        within?.();
        return locked;
      },
    );
    const lock = new WriteLock(db);
    this.appendTransaction = (stream, events, expected, guess, within) => {
      let locked: LockedAppend;
      try {
        locked = lock.run(() => transaction.immediate(stream, events, expected, guess, within));
      } catch (error) {
        // Refused before writing (a conflict, a bad event) or failed in its COMMIT (a full disk, an I/O error):
        // in the second case what the file holds is not known here.
        this.heads.forget();
        throw error;
      }
      // Committed: the heads it left are this connection's until another connection commits.
      this.heads.appended(stream, locked.streamHead, locked.logHead);
      return locked.result;
    };
    this.traces = prepareTraceRows(db, lock);
  }

  async readTraceStarts(afterPosition: number, limit: number): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.traces.starts(afterPosition, limit).map(toRecorded);
  }

  async replaceTraceData(stubs: Array<{ position: number; data: EventData }>): Promise<number> {
    this.assertOpen();
    return this.traces.replace(stubs);
  }

  async append(
    stream: string,
    events: NewEvent[],
    expected: ExpectedRevision,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.assertOpen();
    const prepared: StoredEvent[] = prepareBatch(stream, events, expected).map((event) => ({
      ...event,
      storedData: encodePayload(event.dataJson, compressFrom(event.type)),
    }));
    this.assertSize(stream, prepared);
    let result: AppendResult;
    try {
      result = this.appendTransaction(
        stream,
        prepared,
        expected,
        this.chainGuess(stream, prepared, expected),
        options.within,
      );
    } catch (error) {
      // Unreachable while every writer goes through BEGIN IMMEDIATE, but if two writers ever raced past the
      // check, the loser must see the same error as any other concurrency conflict.
      if (isSqliteUniqueViolation(error) && /events\.stream|events\.revision/.test(String(error))) {
        throw new WrongExpectedVersionError(stream, expected, this.lastOf(stream)?.revision ?? null);
      }
      throw error;
    }
    // Acknowledged once on disk (this process's subscriptions may see it sooner: what survives a power loss is
    // always a prefix of the commits, so nothing derived can outlive the event it came from).
    for (const subscription of this.subscriptions) subscription.wake();
    if (this.flusher === null) return result;
    if (options.durability === 'committed') {
      // On disk with the next sync, at the latest COMMITTED_SYNC_WITHIN_MS from now; nobody waits for it.
      this.flusher.flushWithin(COMMITTED_SYNC_WITHIN_MS, (error: unknown) => {
        process.emitWarning(`SQLite WAL sync failed: ${String(error)}`, { code: 'CAIRN_WAL_SYNC' });
      });
      return result;
    }
    await this.flusher.flush();
    return result;
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const limit = rowLimit(options.max_count);
    if (limit === 0) return [];
    const rows =
      options.direction === 'backward'
        ? this.statements.backward.for(limit).all(stream, options.from_revision ?? Number.MAX_SAFE_INTEGER)
        : this.statements.forward.for(limit).all(stream, options.from_revision ?? 0);
    return (rows as Row[]).map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.readAfter(options.after_position ?? 0, rowLimit(options.max_count));
  }

  async readAllOfTypes(options: TypedReadOptions): Promise<TypedRead> {
    this.assertOpen();
    return readOfTypes(this.statements, options, this.typedReadWindow, toRecorded);
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    this.assertOpen();
    const subscription = new PollingSubscription(
      (position, limit) => this.readAfter(position, limit),
      options,
      this.pollIntervalMs,
      (ended) => this.subscriptions.delete(ended),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async headPosition(): Promise<number> {
    this.assertOpen();
    return this.statements.head.get() as number;
  }

  async countEvents(upToPosition: number): Promise<number> {
    this.assertOpen();
    return this.statements.count.get(upToPosition) as number;
  }

  async *listStreams(): AsyncIterable<string> {
    this.assertOpen();
    let after = 0;
    for (;;) {
      const rows = this.statements.streams.all(after) as Array<[string, number]>;
      for (const [stream] of rows) yield stream;
      if (rows.length < STREAMS_PAGE) return;
      after = rows[rows.length - 1][1];
    }
  }

  async ping(): Promise<void> {
    this.assertOpen();
    this.statements.ping.get();
  }

  /** Stops every subscription. The database handle belongs to its owner, who closes it. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    // Appends acknowledged before their sync (`committed` durability) reach the disk before the file closes.
    await this.flusher?.flush();
  }

  /** Refuses an append over the limit, sized with its chain links (every hash is 64 hex digits). */
  private assertSize(stream: string, events: PreparedEvent[]): void {
    const size = appendSize(
      events.map((event) => ({
        type: event.type,
        dataJson: event.dataJson,
        metadata: { ...event.metadata, prev_hash: GENESIS_HASH, hash: GENESIS_HASH },
      })),
    );
    if (size > this.maxAppendBytes) throw new AppendTooLargeError(stream, size, this.maxAppendBytes);
  }

  /**
   * The batch hashed before the write lock is taken (hashing is most of an append's work), on the stream's last
   * event as read now; appendLocked uses it when that is still the last event, so the lock is held for the
   * insert alone. A new stream's chain starts at GENESIS_HASH, nothing to read.
   */
  private chainGuess(stream: string, events: StoredEvent[], expected: ExpectedRevision): ChainGuess {
    const last = this.headBefore(stream, expected);
    if (last !== undefined && typeof last.hash !== 'string') return null;
    const chained = chainBatch(
      stream,
      last ? last.revision + 1 : 0,
      (last?.hash as string | undefined) ?? GENESIS_HASH,
      events,
    );
    return { after: last ?? null, chained, metadataColumns: chained.map(metadataColumn) };
  }

  /** Runs inside BEGIN IMMEDIATE: nobody else can write between the read of the last revision and the insert. */
  private appendLocked(
    stream: string,
    events: StoredEvent[],
    expected: ExpectedRevision,
    guess: ChainGuess,
  ): LockedAppend {
    this.heads.checkInLock();
    // Expecting a new stream, nothing is read: should it exist, UNIQUE (stream, revision) refuses revision 0 and
    // append() reports the conflict like any other.
    const last = this.headBefore(stream, expected);
    const actual = last?.revision ?? null;
    checkExpected(stream, expected, actual);
    let prevHash = GENESIS_HASH;
    if (last) {
      if (typeof last.hash !== 'string') {
        throw new Error(`stream ${stream}: revision ${last.revision} has no hash; the chain cannot continue`);
      }
      prevHash = last.hash;
    }
    const firstRevision = actual === null ? 0 : actual + 1;
    const guessed =
      guess !== null &&
      (guess.after?.revision ?? null) === actual &&
      (guess.after?.hash ?? GENESIS_HASH) === prevHash;
    const chained = guessed ? guess.chained : chainBatch(stream, firstRevision, prevHash, events);
    // The log chain (log-chain.ts) links after the log's last event as read here, inside the write lock, so the
    // global order and the links agree. Not guessed outside the lock: reading the log's head there was one more
    // read that could be the first after another process's commit, which SQLite makes pay for its discarded cache
    // (about 25 µs a search with two HTTP workers), more than linking here (a hash per event) holds the lock.
    const metadataColumns = guessed ? guess.metadataColumns : chained.map(metadataColumn);
    const links = linkIntoLog(chained, this.heads.logHead() ?? this.globalHead());
    let position = 0;
    chained.forEach((event, n) => {
      const info = this.statements.insert.run(
        event.event_id,
        stream,
        event.revision,
        event.type,
        event.storedData,
        metadataColumns[n],
        links[n].prev,
        links[n].hash,
      );
      position = Number(info.lastInsertRowid);
    });
    const lastEvent = chained[chained.length - 1];
    return {
      result: { next_expected_revision: firstRevision + chained.length - 1, position },
      streamHead: { revision: lastEvent.revision, hash: lastEvent.metadata.hash },
      logHead: links[links.length - 1].hash.toString('hex'),
    };
  }

  /**
   * The log's last event's global_hash, as hex (GENESIS_HASH for none, or for one written before the log chain). The
   * stored values are read as audit:verify reads them (decodeMetadata), so an append links after what it verifies.
   */
  private globalHead(): string {
    const row = this.statements.globalHead.get() as [Buffer | null, string | Buffer] | undefined;
    if (row === undefined) return GENESIS_HASH;
    if (Buffer.isBuffer(row[0])) return row[0].toString('hex');
    const hash = decodeMetadata(row[1]).global_hash;
    return typeof hash === 'string' ? hash : GENESIS_HASH;
  }

  /**
   * The stream's last revision and hash an append continues from: as this connection's last append left it
   * (append-heads.ts), else read. None is read when the append expects a new stream.
   */
  private headBefore(
    stream: string,
    expected: ExpectedRevision,
  ): { revision: number; hash: unknown } | undefined {
    return expected === 'no_stream' ? undefined : (this.heads.streamHead(stream) ?? this.lastOf(stream));
  }

  /** A stream's last revision and its stored hash, read as audit:verify reads it. */
  private lastOf(stream: string): { revision: number; hash: unknown } | undefined {
    const row = this.statements.last.get(stream) as [number, string | Buffer] | undefined;
    return row && { revision: row[0], hash: decodeMetadata(row[1]).hash };
  }

  /** Events after `position`, at most `limit` (null: all). */
  private readAfter(position: number, limit: number | null): RecordedEvent[] {
    if (limit === 0) return [];
    return (this.statements.all.for(limit).all(position) as Row[]).map(toRecorded);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('SqliteEventStore is closed');
  }
}

/** An event's metadata column (event-metadata.ts): without the log link, which has columns of its own. */
const metadataColumn = (event: ChainedEvent<StoredEvent>): string | Buffer => encodeMetadata(event.metadata);

/** Each chained event's link into the log chain after `globalPrev` (hex), as stored. */
function linkIntoLog(chained: ReadonlyArray<ChainedEvent<StoredEvent>>, globalPrev: string): StoredLink[] {
  let previous = globalPrev;
  return chained.map((event) => {
    const hash = linkHash(previous, event.metadata.hash);
    const link = { prev: Buffer.from(previous, 'hex'), hash: Buffer.from(hash, 'hex') };
    previous = hash;
    return link;
  });
}

/** A read's `max_count` as a row limit: null for none, 0 for an empty read. */
function rowLimit(maxCount: number | undefined): number | null {
  if (maxCount === undefined) return null;
  if (!Number.isSafeInteger(maxCount)) throw new RangeError(`max_count must be an integer, got ${maxCount}`);
  return Math.max(0, maxCount);
}

/**
 * An event's metadata with its log link last, as hex (the same object whether the link was stored in its columns
 * or, in a row written before them, in the metadata JSON).
 */
function withLink(
  metadata: RecordedEvent['metadata'],
  prev: Buffer | null,
  hash: Buffer | null,
): RecordedEvent['metadata'] {
  if (prev === null || hash === null) return metadata;
  metadata.global_prev_hash = prev.toString('hex');
  metadata.global_hash = hash.toString('hex');
  return metadata;
}

/**
 * The event of a row. Its data is parsed (and decompressed) when first read: a projection that skips an event by
 * its type never pays for its payload, and a batch kept for several projections holds the stored bytes only.
 * `data` is an own enumerable property like the others (spreads, JSON and equality see it); assigning it replaces
 * the parsed value. The metadata is unpacked at once (every reader of events reads it; kept packed, each event would
 * hold three more buffers until then: a 100k-chunk rebuild peaked ~40 MB higher). A part that cannot be decoded
 * throws StoredEventUnreadableError, naming the row, where it is read.
 */
function toRecorded(row: Row): RecordedEvent {
  const stored = row[5];
  let data: RecordedEvent['data'] | undefined;
  const event = {
    event_id: row[1],
    stream: row[2],
    revision: row[3],
    position: row[0],
    type: row[4],
  } as RecordedEvent;
  try {
    const metadata = decodeMetadata(row[6]) as unknown as RecordedEvent['metadata'];
    event.metadata = withLink(metadata, row[7], row[8]);
  } catch (error) {
    // The other events of the page stay readable; this one fails where it is read, naming its row.
    const unreadable = unreadableError(event, 'metadata', error);
    Object.defineProperty(event, 'metadata', {
      enumerable: true,
      configurable: true,
      get: () => {
        throw unreadable;
      },
    });
  }
  Object.defineProperty(event, 'data', {
    enumerable: true,
    configurable: true,
    get: () => {
      if (data !== undefined) return data;
      try {
        return (data = parsePayload(stored) as RecordedEvent['data']);
      } catch (error) {
        throw unreadableError(event, 'data', error);
      }
    },
    set: (value: RecordedEvent['data']) => (data = value),
  });
  return event;
}

function unreadableError(
  event: Pick<RecordedEvent, 'position' | 'stream' | 'revision' | 'event_id'>,
  part: 'data' | 'metadata',
  error: unknown,
): StoredEventUnreadableError {
  const { position, stream, revision, event_id } = event;
  const cause = error instanceof Error ? error.message : String(error);
  return new StoredEventUnreadableError({ position, stream, revision, event_id }, part, cause);
}
