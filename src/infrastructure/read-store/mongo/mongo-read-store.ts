/**
 * The production ReadStore on MongoDB (this directory is the only one that imports `mongodb`; leases and id
 * sequences are in mongo-coordination.ts).
 *
 * Commits are multi-document transactions, which MongoDB only offers on a replica set or a sharded cluster:
 * docker-compose must start mongod as a single-node replica set (`mongod --replSet rs0` + `rs.initiate()`),
 * and connect() refuses a standalone server with a clear message.
 *
 * Layout in the database (default `cairn`): one collection per read-model collection, `rm_<name>`, documents
 * stored as their JSON form with `_id` = id; `projection_checkpoints` {_id: projection, position, version,
 * updated_at}; `leases` {_id: name, owner, expires_at}; `id_sequences` {_id: name, last} (last id handed out).
 * Lease times come from this process's clock: keep the servers' clocks in sync (NTP).
 */
import {
  MongoClient,
  MongoServerError,
  type AnyBulkWriteOperation,
  type ClientSession,
  type Collection,
  type Db,
  type Document,
  type Filter,
  type TransactionOptions,
} from 'mongodb';
import { Clock, SystemClock } from '../../../common/clock';
import type {
  Checkpoint,
  CollectionOptions,
  FindOptions,
  FindResult,
  LeaseInfo,
  ReadDocument,
  ReadStore,
  CommitOptions,
  WriteOp,
} from '../read-store.port';
import { assertGetManyIds } from '../read-store.port';
import {
  assertCollectionName,
  assertFieldName,
  assertNonEmptyString,
  assertPackedFields,
  assertSparseFields,
  assertPosition,
  assertWriteOps,
  effectiveSort,
  parseFindOptions,
  toStoredJson,
} from '../read-store-query';
import { MongoCoordination } from './mongo-coordination';
import { unwrapArrays, wrapArrays } from './mongo-arrays';
import { mongoFilter, mongoSort } from './mongo-filter';
import { isDuplicateKey } from './mongo-values';

type StoredDoc = Document & { _id: string };
type CheckpointDoc = { _id: string; position: number; version: number; updated_at: string };

export interface MongoReadStoreOptions {
  /** Database name; default `cairn`. */
  database?: string;
  clock?: Clock;
}

const TRANSACTION: TransactionOptions = {
  readConcern: { level: 'snapshot' },
  writeConcern: { w: 'majority' },
  readPreference: 'primary',
};
const NAMESPACE_EXISTS = 48;
const COMMAND_NOT_FOUND = 59;
/** The checkpoint version while reset() empties a projection's collections (see reset()). */
const RESETTING = 0;
/** How often reset() starts over when its marker was moved while it emptied the collections. */
const RESET_ATTEMPTS = 5;

/** Thrown inside a transaction when the checkpoint is not at the expected position (aborts it). */
class CheckpointMoved extends Error {}

function toCheckpoint(doc: CheckpointDoc): Checkpoint {
  return { projection: doc._id, position: doc.position, version: doc.version, updated_at: doc.updated_at };
}

/**
 * A stored document back to the port's shape (the id lives in `id` too; `_id` is dropped; top-level arrays
 * unwrapped, see mongo-arrays.ts).
 */
function toReadDocument<T extends ReadDocument>(doc: Document): T {
  const { _id, ...rest } = doc;
  return { ...unwrapArrays(rest), id: String(_id) } as T;
}

export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly checkpoints: Collection<CheckpointDoc>;
  private readonly coordination: MongoCoordination;

  constructor(url: string, options: MongoReadStoreOptions = {}) {
    this.client = new MongoClient(url, { writeConcern: { w: 'majority' } });
    this.db = this.client.db(options.database ?? 'cairn');
    this.clock = options.clock ?? new SystemClock();
    this.checkpoints = this.db.collection<CheckpointDoc>('projection_checkpoints');
    this.coordination = new MongoCoordination(this.db, this.clock);
  }

  /** Connects and checks that the server supports transactions (replica set or mongos). */
  async connect(): Promise<void> {
    await this.client.connect();
    const hello = await this.db.admin().command({ hello: 1 });
    if (typeof hello.setName !== 'string' && hello.msg !== 'isdbgrid') {
      await this.client.close();
      throw new Error(
        'MongoDB read store needs transactions: run mongod as a replica set (e.g. --replSet rs0, then rs.initiate())',
      );
    }
  }

  private documents(collection: string): Collection<StoredDoc> {
    assertCollectionName(collection);
    return this.db.collection<StoredDoc>(`rm_${collection}`);
  }

  /** Packed fields (`options.packed`) are checked and stored as given: MongoDB compresses whole blocks itself. */
  async ensureCollection(
    collection: string,
    indexedFields: string[],
    options: CollectionOptions = {},
  ): Promise<void> {
    const coll = this.documents(collection);
    for (const field of indexedFields) assertFieldName(field);
    assertPackedFields(options.packed ?? [], indexedFields);
    // Sparse fields are indexed like the others here (CollectionOptions.sparse: an adapter may).
    assertSparseFields(options.sparse ?? [], indexedFields);
    try {
      await this.db.createCollection(coll.collectionName);
    } catch (error) {
      // Exists already; or a compatible server without `create`: the first write creates the collection then
      // (implicitly, also inside a transaction, as MongoDB >= 4.4 does).
      const code = error instanceof MongoServerError ? error.code : undefined;
      if (code !== NAMESPACE_EXISTS && code !== COMMAND_NOT_FOUND) throw error;
    }
    const fields = [...new Set(indexedFields)].filter((f) => f !== 'id'); // `_id` is always indexed
    if (fields.length === 0) return;
    // {field, _id}: serves filters on the field and sorts on it with the id tie-breaker.
    await coll.createIndexes(fields.map((f) => ({ key: { [f]: 1, _id: 1 }, name: `by_${f}` })));
  }

  async get<T extends ReadDocument = ReadDocument>(collection: string, id: string): Promise<T | null> {
    const doc = await this.documents(collection).findOne({ _id: id });
    return doc ? toReadDocument<T>(doc) : null;
  }

  async getMany<T extends ReadDocument = ReadDocument>(
    collection: string,
    ids: readonly string[],
  ): Promise<Map<string, T>> {
    assertGetManyIds(ids);
    const found = new Map<string, T>();
    if (ids.length === 0) return found;
    const docs = await this.documents(collection)
      .find({ _id: { $in: [...new Set(ids)] } })
      .toArray();
    for (const doc of docs) {
      const read = toReadDocument<T>(doc);
      found.set(read.id, read);
    }
    return found;
  }

  async find<T extends ReadDocument = ReadDocument>(
    collection: string,
    options?: FindOptions,
  ): Promise<FindResult<T>> {
    const coll = this.documents(collection);
    const parsed = parseFindOptions(options);
    const filter = mongoFilter(parsed.filter) as Filter<StoredDoc>;
    const items =
      parsed.limit === 0 // MongoDB reads limit 0 as "no limit"
        ? []
        : await coll
            .find(filter, {
              sort: mongoSort(effectiveSort(parsed)),
              skip: parsed.offset,
              limit: parsed.limit,
            })
            .toArray();
    // A partial, non-empty page tells the total without counting.
    const partial = items.length > 0 && items.length < parsed.limit;
    const total = partial ? parsed.offset + items.length : await coll.countDocuments(filter);
    return { items: items.map((doc) => toReadDocument<T>(doc)), total };
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
    const batches = this.toBatches(ops);
    await options.after;
    const checkpoint = { position: next.position, version: next.version, updated_at: this.clock.nowIso() };
    const session = this.client.startSession();
    try {
      // The callback may run again on a transient error (e.g. a write conflict): it re-checks the checkpoint.
      return await session.withTransaction(async (s) => {
        await this.moveCheckpoint(s, projection, expectedPosition, checkpoint);
        for (const { collection, models } of batches) {
          await this.documents(collection).bulkWrite(models, { session: s, ordered: true });
        }
        return true;
      }, TRANSACTION);
    } catch (error) {
      if (error instanceof CheckpointMoved) return false;
      throw error;
    } finally {
      await session.endSession();
    }
  }

  /** Compare-and-set of the checkpoint inside the transaction; throws CheckpointMoved when it does not match. */
  private async moveCheckpoint(
    session: ClientSession,
    projection: string,
    expected: number,
    next: Omit<CheckpointDoc, '_id'>,
  ): Promise<void> {
    if (expected !== 0) {
      const result = await this.checkpoints.updateOne(
        { _id: projection, position: expected },
        { $set: next },
        { session },
      );
      if (result.matchedCount !== 1) throw new CheckpointMoved();
      return;
    }
    // Absent counts as 0: upsert; when a checkpoint exists at another position, or is reset()'s marker (a reset is
    // emptying the read model), the insert hits the unique _id.
    try {
      await this.checkpoints.updateOne(
        { _id: projection, position: 0, version: { $ne: RESETTING } },
        { $set: next },
        { session, upsert: true },
      );
    } catch (error) {
      if (isDuplicateKey(error)) throw new CheckpointMoved();
      throw error;
    }
  }

  /** Consecutive ops on the same collection become one ordered bulkWrite (order is kept overall). */
  private toBatches(
    ops: WriteOp[],
  ): Array<{ collection: string; models: AnyBulkWriteOperation<StoredDoc>[] }> {
    const batches: Array<{ collection: string; models: AnyBulkWriteOperation<StoredDoc>[] }> = [];
    for (const op of ops) {
      const model: AnyBulkWriteOperation<StoredDoc> =
        op.op === 'put'
          ? {
              replaceOne: {
                filter: { _id: op.doc.id },
                // The JSON round trip every adapter applies; _id comes from the filter on upsert.
                replacement: wrapArrays(JSON.parse(toStoredJson(op.doc)) as Document),
                upsert: true,
              },
            }
          : { deleteOne: { filter: { _id: op.id } } };
      const last = batches.at(-1);
      if (last && last.collection === op.collection) last.models.push(model);
      else batches.push({ collection: op.collection, models: [model] });
    }
    return batches;
  }

  async getCheckpoint(projection: string): Promise<Checkpoint | null> {
    const doc = await this.checkpoints.findOne({ _id: projection });
    return doc ? toCheckpoint(doc) : null;
  }

  async listCheckpoints(): Promise<Checkpoint[]> {
    const docs = await this.checkpoints.find({}).sort({ _id: 1 }).toArray();
    return docs.map(toCheckpoint);
  }

  /**
   * Not one transaction: MongoDB aborts a transaction after 60 s (transactionLifetimeLimitSeconds), which a large
   * read model outlasts. Instead, in three durable steps that a crash at any point leaves resumable:
   * 1. the checkpoint becomes the marker {position 0, version 0}: every commit from the old position now fails its
   *    compare-and-set, a commit from position 0 does not take the marker over (see moveCheckpoint), and a runner
   *    finding version 0 (below every projection's version) resets again;
   * 2. each collection is emptied, outside any transaction;
   * 3. the marker is deleted (absent = position 0). When it is no longer there to delete, something moved the
   *    checkpoint while the collections were emptied (a commit of a runner that still replayed, or a lost write:
   *    jongodb's transactions overwrite concurrent writes to other documents, see the contract's known gaps), so
   *    the read model may hold documents from before the reset: the reset starts over, RESET_ATTEMPTS times at most.
   */
  async reset(projection: string, collections: string[]): Promise<void> {
    assertNonEmptyString(projection, 'projection');
    const colls = collections.map((c) => this.documents(c));
    for (let attempt = 1; attempt <= RESET_ATTEMPTS; attempt++) {
      await this.checkpoints.updateOne(
        { _id: projection },
        { $set: { position: 0, version: RESETTING, updated_at: this.clock.nowIso() } },
        { upsert: true },
      );
      for (const coll of colls) await coll.deleteMany({});
      const removed = await this.checkpoints.deleteOne({ _id: projection, version: RESETTING });
      if (removed.deletedCount === 1) return;
    }
    throw new Error(
      `reset of projection "${projection}": its checkpoint kept moving while the read model was emptied (${RESET_ATTEMPTS} attempts)`,
    );
  }

  acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.coordination.acquireLease(name, owner, ttlMs);
  }

  releaseLease(name: string, owner: string): Promise<void> {
    return this.coordination.releaseLease(name, owner);
  }

  getLease(name: string): Promise<LeaseInfo | null> {
    return this.coordination.getLease(name);
  }

  reserveIds(sequence: string, count: number): Promise<number> {
    return this.coordination.reserveIds(sequence, count);
  }

  hitCounter(name: string, windowStart: number, hits?: number): Promise<number> {
    return this.coordination.hitCounter(name, windowStart, hits);
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Drops this store's database (tests and throw-away environments only). */
  async dropDatabase(): Promise<void> {
    await this.db.dropDatabase();
  }
}
