/**
 * The ReadStore port: documents (read models) written only by projections, checkpoints advanced by
 * compare-and-set in the same transaction as the writes, leases so one process runs a projection at a time,
 * and id sequences (which are NOT read models: a rebuild never touches them).
 */

export type Scalar = string | number | boolean | null;

/** A filter on one top-level document field. Plain scalars mean equality (null matches null or missing). */
export type FieldFilter =
  | Scalar
  | { $in: Scalar[] }
  | { $ne: Scalar }
  | { $gt?: number | string; $gte?: number | string; $lt?: number | string; $lte?: number | string }
  /** Case-insensitive substring match on a string field. */
  | { $contains: string };

/** Conjunction of field filters. Keys are top-level field names ([A-Za-z0-9_]+). */
export type DocumentFilter = Record<string, FieldFilter>;

/**
 * What `find` accepts: field filters ANDed, plus an optional `$or` key holding conjunctions of which at least
 * one must match (e.g. `{ status: 'published', $or: [{ a: 1 }, { b: 2 }] }`).
 */
export type FindFilter = { [field: string]: FieldFilter | DocumentFilter[] } & { $or?: DocumentFilter[] };

export interface SortKey {
  field: string;
  direction: 'asc' | 'desc';
}

export interface FindOptions {
  filter?: FindFilter;
  /** Applied in order; the store always adds `id asc` as the final tie-breaker so paging is stable. */
  sort?: SortKey[];
  /** Default 100, at most 10,000. */
  limit?: number;
  offset?: number;
}

export interface FindResult<T> {
  items: T[];
  /** Number of documents matching the filter, ignoring limit/offset. */
  total: number;
}

/** A stored document: JSON object with a string id. */
export type ReadDocument = Record<string, unknown> & { id: string };

export type WriteOp =
  { op: 'put'; collection: string; doc: ReadDocument } | { op: 'delete'; collection: string; id: string };

export interface CommitOptions {
  /**
   * Nothing is written before this settles: the caller's writes that must land first (a projection step's search
   * index writes). The documents are prepared meanwhile (serialized; the embedded store also compresses them,
   * on a thread of its own for a large batch). If it rejects, nothing is written and commit() rejects with its
   * error.
   */
  after?: Promise<unknown>;
}

export interface Checkpoint {
  projection: string;
  /** Global position of the last event applied (0: none). */
  position: number;
  /** The projection's version when the checkpoint was written. */
  version: number;
  updated_at: string;
}

export interface LeaseInfo {
  name: string;
  owner: string;
  /** Epoch milliseconds. */
  expires_at: number;
}

/** The most ids one getMany() reads. */
export const MAX_GET_MANY = 1000;

/** Throws RangeError when `ids` is not a list of at most MAX_GET_MANY strings. */
export function assertGetManyIds(ids: readonly unknown[]): void {
  if (!Array.isArray(ids) || ids.length > MAX_GET_MANY || ids.some((id) => typeof id !== 'string')) {
    throw new RangeError(`getMany takes at most ${MAX_GET_MANY} string ids`);
  }
}

export interface CollectionOptions {
  /**
   * Top-level fields holding bulk text (a memory item's chunks) that an adapter may store compressed, apart from
   * the rest of the document (the embedded store does; MongoDB compresses whole blocks itself). They can be
   * neither filtered nor sorted on; `getMany(…, { packed: false })` may leave them out. Not `id` or an indexed field.
   */
  packed?: string[];
  /**
   * Indexed fields that most documents hold as null (a memory item's `owner_client_key`): an adapter may index only
   * the documents whose value is not null (the embedded store does; MongoDB indexes them all). A find by equality
   * to a value uses such an index; one for null does not.
   */
  sparse?: string[];
}

export interface GetManyOptions {
  /** False: the collection's packed fields may be left out (null), sparing their decompression. Default true. */
  packed?: boolean;
}

export interface ReadStore {
  /**
   * Creates the collection if missing and indexes the given top-level fields (idempotent). A process that writes a
   * collection calls this first (its packed fields apply to this process's writes).
   */
  ensureCollection(collection: string, indexedFields: string[], options?: CollectionOptions): Promise<void>;
  get<T extends ReadDocument = ReadDocument>(collection: string, id: string): Promise<T | null>;
  /**
   * The documents of `ids` that exist, by id, read at once (one snapshot). At most MAX_GET_MANY ids;
   * duplicates are read once.
   */
  getMany<T extends ReadDocument = ReadDocument>(
    collection: string,
    ids: readonly string[],
    options?: GetManyOptions,
  ): Promise<Map<string, T>>;
  find<T extends ReadDocument = ReadDocument>(
    collection: string,
    options?: FindOptions,
  ): Promise<FindResult<T>>;

  /**
   * Applies `ops` in order and moves the checkpoint of `projection` from `expectedPosition` to `next`, atomically.
   * Returns false and applies nothing when the stored position (0 when absent) is not `expectedPosition`.
   * The caller must not change `ops` or their documents until the returned promise settles.
   */
  commit(
    projection: string,
    expectedPosition: number,
    next: { position: number; version: number },
    ops: WriteOp[],
    options?: CommitOptions,
  ): Promise<boolean>;
  getCheckpoint(projection: string): Promise<Checkpoint | null>;
  listCheckpoints(): Promise<Checkpoint[]>;
  /** Empties the collections and deletes the checkpoint, atomically (used by rebuild). */
  reset(projection: string, collections: string[]): Promise<void>;

  /** Acquires the lease when free or expired, or renews it when `owner` holds it. True when `owner` holds it now. */
  acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Releases the lease if `owner` holds it. */
  releaseLease(name: string, owner: string): Promise<void>;
  getLease(name: string): Promise<LeaseInfo | null>;

  /**
   * Reserves `count` consecutive ids of the named sequence, unique across processes; ids start at 1 and stay
   * at most Number.MAX_SAFE_INTEGER. Returns the first reserved id.
   */
  reserveIds(sequence: string, count: number): Promise<number>;

  /**
   * Counts `hits` hits (default 1, a positive integer) on the named counter in the window that starts at
   * `windowStart` (epoch ms, the caller's fixed window), atomically across processes, and returns the count
   * including them. A later window starts again from `hits`; hits naming an earlier window than the stored one (a
   * process whose clock lags) count in the stored one. One record per counter name.
   */
  hitCounter(name: string, windowStart: number, hits?: number): Promise<number>;

  ping(): Promise<void>;
  close(): Promise<void>;
}

export const READ_STORE = Symbol('READ_STORE');
