/**
 * The embedded ReadStore on the shared SQLite file (WAL). Several processes (server, operator CLI) may use the
 * file at once, so every write is one short statement or one BEGIN IMMEDIATE transaction (which waits for the
 * write lock up to the connection's busy_timeout instead of failing on a stale read snapshot).
 *
 * Tables: read_documents (one row per document, stored as JSONB — read it with json(doc) — with a partial
 * expression index per collection and indexed field, see collection-sql.ts and sqlite-filter.ts; a
 * collection's packed fields in the `packed` column, see packed-fields.ts),
 * projection_checkpoints, leases, id_sequences, window_counters. JSONB (SQLite >= 3.45) makes json_extract on rows that no index
 * covers about twice as fast as JSON text.
 * better-sqlite3 is synchronous: the async methods just wrap synchronous calls.
 */
import { Clock, SystemClock } from '../../../common/clock';
import type { SqliteDatabase, SqliteStatement } from '../../sqlite/sqlite-connection';
import { WriteLock } from '../../sqlite/write-lock';
import type {
  Checkpoint,
  CollectionOptions,
  CommitOptions,
  FindOptions,
  GetManyOptions,
  FindResult,
  LeaseInfo,
  ReadDocument,
  ReadStore,
  WriteOp,
} from '../read-store.port';
import { assertGetManyIds } from '../read-store.port';
import {
  assertCollectionName,
  assertFieldName,
  assertHits,
  assertIdCount,
  assertNonEmptyString,
  assertPackedFields,
  assertSparseFields,
  assertPosition,
  assertTtl,
  assertWriteOps,
  parseFindOptions,
  toStoredJson,
} from '../read-store-query';
import { LOWER_FN, type SqlParam } from './sqlite-filter';
import { DeflateWorker } from './deflate-worker';
import {
  assertNotPacked,
  PACKED_DEFLATE_LEVEL,
  packedField,
  type SerializedDocument,
  serializeDocument,
  unpackDocument,
} from './packed-fields';
import {
  collectionIndex,
  collectionSql,
  collectionStatementsSql,
  findSql,
  SHARED_INDEX_PREFIX,
} from './collection-sql';
import { ReadDocumentsPlannerStats } from './sqlite-planner-stats';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS read_documents (
  collection TEXT NOT NULL,
  id TEXT NOT NULL,
  doc BLOB NOT NULL,
  PRIMARY KEY (collection, id)
);
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  projection TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  version INTEGER NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS leases (
  name TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS id_sequences (
  name TEXT PRIMARY KEY,
  next INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS window_counters (
  name TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL
);`;

/** `next` (the next id to hand out) may reach MAX_SAFE_INTEGER + 1: the last id handed out stays safe. */
const SEQUENCE_CEILING = BigInt(Number.MAX_SAFE_INTEGER) + 1n;
const STATEMENT_CACHE_SIZE = 200;

/** The part of a prepared statement used here, typed by its parameters and row. */
interface Stmt<P extends unknown[], R = unknown> {
  run(...params: P): { changes: number };
  get(...params: P): R | undefined;
  all(...params: P): R[];
}

/** A document's row as read: its JSON and its packed fields (packed-fields.ts). */
interface DocRow {
  doc: string;
  packed: Buffer | null;
}

type DocStmt = Stmt<SqlParam[], DocRow>;
type CountStmt = Stmt<SqlParam[], { n: number }>;

export interface SqliteReadStoreOptions {
  clock?: Clock;
}

export class SqliteReadStore implements ReadStore {
  private readonly clock: Clock;
  private readonly findCache = new Map<string, SqliteStatement>();
  private readonly byCollection = new Map<string, CollectionStatements>();
  private readonly s: ReturnType<SqliteReadStore['prepareAll']>;
  private readonly tx: ReturnType<SqliteReadStore['makeTransactions']>;
  private readonly stats: ReadDocumentsPlannerStats;
  /** Projection commits and id reservations contend for the write lock with other processes' appends. */
  private readonly lock: WriteLock;
  /** Each collection's packed fields, as this process's ensureCollection() named them. */
  private readonly packedFields = new Map<string, readonly string[]>();
  /** Compresses a commit's packed fields, on a thread of its own for a large batch. */
  private readonly deflater = new DeflateWorker(PACKED_DEFLATE_LEVEL);

  constructor(
    private readonly db: SqliteDatabase,
    options: SqliteReadStoreOptions = {},
  ) {
    this.clock = options.clock ?? new SystemClock();
    db.transaction(() => {
      db.exec(SCHEMA);
      addPackedColumn(db);
    }).immediate();
    db.function(LOWER_FN, { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? value.toLowerCase() : null,
    );
    this.s = this.prepareAll();
    this.tx = this.makeTransactions();
    this.lock = new WriteLock(db);
    this.stats = new ReadDocumentsPlannerStats(db);
  }

  private makeTransactions() {
    const s = this.s;
    return {
      /** Run with .immediate(): checks the checkpoint, applies the ops in order, moves the checkpoint. */
      commit: this.db.transaction((expected: number, next: Checkpoint, ops: PreparedOp[]): boolean => {
        const current = s.getCheckpoint.get(next.projection)?.position ?? 0;
        if (current !== expected) return false;
        for (const op of ops) {
          if (op.op === 'put') s.put.run(op.collection, op.id, op.json, op.packed);
          else this.collection(op.collection).delete.run(op.id);
        }
        s.putCheckpoint.run(next.projection, next.position, next.version, next.updated_at);
        return true;
      }),
      reset: this.db.transaction((projection: string, collections: string[]): void => {
        for (const collection of collections) this.collection(collection).deleteCollection.run();
        s.deleteCheckpoint.run(projection);
      }),
      /** Run with .deferred(): a page and its total come from the same snapshot. */
      read: this.db.transaction(
        (page: DocStmt, count: CountStmt, params: SqlParam[], limit: number, offset: number) => {
          const docs = page.all(...params, limit, offset);
          // A partial, non-empty page tells the total without counting.
          const partial = docs.length > 0 && docs.length < limit;
          const total = partial ? offset + docs.length : (count.get(...params)?.n ?? 0);
          return { docs, total };
        },
      ),
    };
  }

  private prepareAll() {
    const p = <P extends unknown[], R = unknown>(sql: string): Stmt<P, R> => this.db.prepare<P, R>(sql);
    const checkpointColumns = 'projection, position, version, updated_at';
    return {
      put: p<[string, string, string, Buffer | null]>(
        `INSERT INTO read_documents (collection, id, doc, packed) VALUES (?, ?, jsonb(?), ?)
         ON CONFLICT (collection, id) DO UPDATE SET doc = excluded.doc, packed = excluded.packed`,
      ),
      getCheckpoint: p<[string], Checkpoint>(
        `SELECT ${checkpointColumns} FROM projection_checkpoints WHERE projection = ?`,
      ),
      listCheckpoints: p<[], Checkpoint>(
        `SELECT ${checkpointColumns} FROM projection_checkpoints ORDER BY projection`,
      ),
      putCheckpoint: p<[string, number, number, string]>(
        `INSERT INTO projection_checkpoints (${checkpointColumns}) VALUES (?, ?, ?, ?)
         ON CONFLICT (projection) DO UPDATE SET
           position = excluded.position, version = excluded.version, updated_at = excluded.updated_at`,
      ),
      deleteCheckpoint: p<[string]>('DELETE FROM projection_checkpoints WHERE projection = ?'),
      acquireLease: p<[string, string, number, number], { owner: string }>(
        `INSERT INTO leases (name, owner, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE leases.owner = excluded.owner OR leases.expires_at <= ?
         RETURNING owner`,
      ),
      releaseLease: p<[string, string]>('DELETE FROM leases WHERE name = ? AND owner = ?'),
      getLease: p<[string], LeaseInfo>('SELECT name, owner, expires_at FROM leases WHERE name = ?'),
      reserveIds: p<[string, bigint, bigint, bigint, bigint], { next: number }>(
        `INSERT INTO id_sequences (name, next) VALUES (?, ? + 1)
         ON CONFLICT (name) DO UPDATE SET next = next + ? WHERE next + ? <= ?
         RETURNING next`,
      ),
      hitCounter: p<[string, number, number], { count: number }>(
        `INSERT INTO window_counters (name, window_start, count) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET
           count = CASE WHEN excluded.window_start > window_start THEN excluded.count
                        ELSE count + excluded.count END,
           window_start = MAX(window_start, excluded.window_start)
         RETURNING count`,
      ),
      ping: p<[]>('SELECT 1'),
      indexExists: p<[string]>("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?"),
    };
  }

  async ensureCollection(
    collection: string,
    indexedFields: string[],
    options: CollectionOptions = {},
  ): Promise<void> {
    assertCollectionName(collection);
    for (const field of indexedFields) assertFieldName(field);
    const packed = assertPackedFields(options.packed ?? [], indexedFields);
    if (packed.length > 0) this.packedFields.set(collection, packed);
    else this.packedFields.delete(collection);
    let created = false;
    const sparse = assertSparseFields(options.sparse ?? [], indexedFields);
    const declared = new Set<string>();
    for (const field of new Set(indexedFields)) {
      if (field === 'id') continue; // the primary key (collection, id)
      const index = collectionIndex(collection, field, sparse.has(field));
      declared.add(index.name);
      if (this.s.indexExists.get(index.name)) continue;
      this.db.exec(index.sql);
      created = true;
    }
    if (this.dropUndeclaredIndexes(collection, declared)) created = true;
    if (this.dropSharedIndexes()) created = true;
    if (created) this.stats.refresh();
  }

  /**
   * Drops this collection's indexes no longer declared (a field no query filters on any more, or an index whose
   * expression changed); true when any was there. A collection's indexes are the ones whose condition starts with
   * its `collection = '…'` (collectionIndex), so another collection's are never touched.
   */
  private dropUndeclaredIndexes(collection: string, declared: ReadonlySet<string>): boolean {
    const where = `WHERE ${collectionSql(collection)}`;
    const stale = this.db
      .prepare<[], { name: string; sql: string }>(
        `SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'read_documents' AND sql IS NOT NULL`,
      )
      .all()
      .filter(({ name, sql }) => {
        const at = sql.indexOf(where);
        const after = sql.slice(at + where.length);
        return at >= 0 && (after === '' || after.startsWith(' AND ')) && !declared.has(name);
      });
    for (const { name } of stale) this.db.exec(`DROP INDEX IF EXISTS "${name.replace(/"/g, '""')}"`);
    return stale.length > 0;
  }

  /** Drops the indexes shared by all collections (layout 1, collection-sql.ts); true when any was there. */
  private dropSharedIndexes(): boolean {
    const shared = this.db
      .prepare<[string], { name: string }>(
        `SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'read_documents'
         AND substr(name, 1, ${SHARED_INDEX_PREFIX.length}) = ?`,
      )
      .all(SHARED_INDEX_PREFIX);
    for (const { name } of shared) this.db.exec(`DROP INDEX IF EXISTS "${name.replace(/"/g, '""')}"`);
    return shared.length > 0;
  }

  async get<T extends ReadDocument = ReadDocument>(collection: string, id: string): Promise<T | null> {
    assertCollectionName(collection);
    const row = this.collection(collection).get.get(id);
    return row ? unpackDocument<T>(row.doc, row.packed) : null;
  }

  async getMany<T extends ReadDocument = ReadDocument>(
    collection: string,
    ids: readonly string[],
    options: GetManyOptions = {},
  ): Promise<Map<string, T>> {
    assertCollectionName(collection);
    assertGetManyIds(ids);
    const found = new Map<string, T>();
    if (ids.length === 0) return found;
    const statements = this.collection(collection);
    const statement = options.packed === false ? statements.getManyUnpacked : statements.getMany;
    for (const row of statement.all(JSON.stringify([...new Set(ids)]))) {
      found.set(row.id, unpackDocument<T>(row.doc, row.packed));
    }
    return found;
  }

  /**
   * One top-level field of the documents `ids` (packed or not), synchronously, without reading the rest of each
   * document: for a reader inside another embedded store's transaction on the same file (the search index's body
   * source, memory-chunk-bodies.ts). At most MAX_GET_MANY ids; a missing document is left out, a missing field is
   * null.
   */
  getFieldNow(collection: string, ids: readonly string[], field: string): Map<string, unknown> {
    assertCollectionName(collection);
    assertGetManyIds(ids);
    assertFieldName(field);
    const found = new Map<string, unknown>();
    if (ids.length === 0) return found;
    const path = `$.${field}`;
    for (const row of this.collection(collection).getManyField.all(path, JSON.stringify([...new Set(ids)]))) {
      found.set(
        row.id,
        packedField(row.packed, field) ?? (row.value === null ? null : JSON.parse(row.value)),
      );
    }
    return found;
  }

  async find<T extends ReadDocument = ReadDocument>(
    collection: string,
    options?: FindOptions,
  ): Promise<FindResult<T>> {
    assertCollectionName(collection);
    const parsed = parseFindOptions(options);
    assertNotPacked(this.packedFields.get(collection), parsed);
    const { pageSql, countSql, params } = findSql(collection, parsed);
    const page = this.cached<DocRow>(pageSql);
    const count = this.cached<{ n: number }>(countSql);
    const { docs, total } = this.tx.read.deferred(page, count, params, parsed.limit, parsed.offset);
    return { items: docs.map((row) => unpackDocument<T>(row.doc, row.packed)), total };
  }

  async commit(
    projection: string,
    expectedPosition: number,
    next: { position: number; version: number },
    ops: WriteOp[],
    options: CommitOptions = {},
  ): Promise<boolean> {
    assertNonEmptyString(projection, 'projection');
    assertPosition(expectedPosition, 'expectedPosition');
    assertPosition(next.position, 'next.position');
    assertPosition(next.version, 'next.version');
    if (next.position < expectedPosition) throw new RangeError('next.position is before expectedPosition');
    assertWriteOps(ops);
    // Serialized now, compressed while `after` runs (on the deflate thread for a large batch), all before the write
    // lock is taken, to keep the transaction short.
    const serialized = ops.map((op) =>
      op.op === 'put'
        ? serializeDocument(op.doc, this.packedFields.get(op.collection) ?? [], toStoredJson)
        : null,
    );
    const texts: string[] = [];
    for (const doc of serialized) if (doc?.packedJson != null) texts.push(doc.packedJson);
    const compressing = this.deflater.deflateMany(texts);
    const [compressed] = await Promise.all([compressing, options.after]);
    let taken = 0;
    const prepared: PreparedOp[] = ops.map((op, n) => {
      if (op.op === 'delete') return { op: 'delete', collection: op.collection, id: op.id };
      const doc = serialized[n] as SerializedDocument;
      const packed = doc.packedJson === null ? null : compressed[taken++];
      return { op: 'put', collection: op.collection, id: op.doc.id, json: doc.json, packed };
    });
    const checkpoint: Checkpoint = { projection, ...next, updated_at: this.clock.nowIso() };
    const committed = this.lock.run(() => this.tx.commit.immediate(expectedPosition, checkpoint, prepared));
    if (committed) this.stats.noteWrites(prepared.length);
    return committed;
  }

  async getCheckpoint(projection: string): Promise<Checkpoint | null> {
    return this.s.getCheckpoint.get(projection) ?? null;
  }

  async listCheckpoints(): Promise<Checkpoint[]> {
    return this.s.listCheckpoints.all();
  }

  async reset(projection: string, collections: string[]): Promise<void> {
    assertNonEmptyString(projection, 'projection');
    for (const collection of collections) assertCollectionName(collection);
    this.tx.reset.immediate(projection, collections);
  }

  async acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    assertNonEmptyString(name, 'lease name');
    assertNonEmptyString(owner, 'lease owner');
    assertTtl(ttlMs);
    const now = this.clock.nowMs();
    return this.lock.run(() => this.s.acquireLease.get(name, owner, now + ttlMs, now)) !== undefined;
  }

  async releaseLease(name: string, owner: string): Promise<void> {
    this.s.releaseLease.run(name, owner);
  }

  async getLease(name: string): Promise<LeaseInfo | null> {
    return this.s.getLease.get(name) ?? null;
  }

  async reserveIds(sequence: string, count: number): Promise<number> {
    assertNonEmptyString(sequence, 'sequence');
    assertIdCount(count);
    const n = BigInt(count);
    const row = this.lock.run(() => this.s.reserveIds.get(sequence, n, n, n, SEQUENCE_CEILING));
    if (row === undefined)
      throw new RangeError(`sequence ${sequence} is exhausted (Number.MAX_SAFE_INTEGER)`);
    return row.next - count;
  }

  async hitCounter(name: string, windowStart: number, hits = 1): Promise<number> {
    assertNonEmptyString(name, 'counter name');
    assertPosition(windowStart, 'window start');
    assertHits(hits);
    return this.lock.run(() => this.s.hitCounter.get(name, windowStart, hits))!.count;
  }

  async ping(): Promise<void> {
    this.s.ping.get();
  }

  /** Stops the deflate thread. The connection is shared (event store, search index): its owner closes it. */
  async close(): Promise<void> {
    await this.deflater.close();
  }

  /** The statements of `collection`'s rows (collection-sql.ts: the collection is a literal), prepared once. */
  private collection(collection: string): CollectionStatements {
    let statements = this.byCollection.get(collection);
    if (statements === undefined) {
      const sql = collectionStatementsSql(collection);
      statements = {
        get: this.db.prepare<[string], DocRow>(sql.get),
        getMany: this.db.prepare<[string], DocRow & { id: string }>(sql.getMany),
        getManyUnpacked: this.db.prepare<[string], DocRow & { id: string }>(sql.getManyUnpacked),
        getManyField: this.db.prepare<[string, string], FieldRow>(sql.getManyField),
        delete: this.db.prepare<[string]>(sql.delete),
        deleteCollection: this.db.prepare<[]>(sql.deleteCollection),
      };
      this.byCollection.set(collection, statements);
    }
    return statements;
  }

  private cached<R>(sql: string): Stmt<SqlParam[], R> {
    let stmt: SqliteStatement | undefined = this.findCache.get(sql);
    if (stmt === undefined) {
      stmt = this.db.prepare(sql);
      if (this.findCache.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.findCache.keys().next();
        if (!oldest.done) this.findCache.delete(oldest.value);
      }
      this.findCache.set(sql, stmt);
    }
    return stmt as Stmt<SqlParam[], R>;
  }
}

interface CollectionStatements {
  get: Stmt<[string], DocRow>;
  getMany: Stmt<[string], DocRow & { id: string }>;
  getManyUnpacked: Stmt<[string], DocRow & { id: string }>;
  getManyField: Stmt<[string, string], FieldRow>;
  delete: Stmt<[string]>;
  deleteCollection: Stmt<[]>;
}

/** A document's packed fields and one of its fields as JSON text (getFieldNow). */
interface FieldRow {
  id: string;
  packed: Buffer | null;
  value: string | null;
}

type PreparedOp =
  | { op: 'put'; collection: string; id: string; json: string; packed: Buffer | null }
  | { op: 'delete'; collection: string; id: string };

/** Files from before packed fields: the column is added (NULL: nothing packed). */
function addPackedColumn(db: SqliteDatabase): void {
  const columns = db
    .prepare<[], { name: string }>(`SELECT name FROM pragma_table_xinfo('read_documents')`)
    .all();
  if (!columns.some((column) => column.name === 'packed')) {
    db.exec('ALTER TABLE read_documents ADD COLUMN packed BLOB');
  }
}
