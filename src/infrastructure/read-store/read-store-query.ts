/**
 * Validation and normalization shared by every ReadStore adapter, so they all accept and reject the same inputs:
 * names, find options (filter → a small typed tree each adapter renders), write ops, sequence counts, lease TTLs.
 * Malformed input throws TypeError; an out-of-range number throws RangeError.
 */
import type { FindOptions, ReadDocument, Scalar, SortKey, WriteOp } from './read-store.port';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 10_000;
/** Bound on `$in` lists (keeps generated SQL and Mongo queries reasonable). */
export const MAX_IN_VALUES = 10_000;

const FIELD_NAME = /^[A-Za-z0-9_]+$/;
/** Collection names become Mongo collection names (`rm_<name>`): keep them portable. */
const COLLECTION_NAME = /^[A-Za-z0-9_-]{1,100}$/;

export type RangeBound = number | string;
export type FieldCondition =
  | { kind: 'eq'; value: Scalar }
  | { kind: 'ne'; value: Scalar }
  | { kind: 'in'; values: Scalar[] }
  | { kind: 'range'; gt?: RangeBound; gte?: RangeBound; lt?: RangeBound; lte?: RangeBound }
  /** `needle` is already lower-cased (String.prototype.toLowerCase). */
  | { kind: 'contains'; needle: string; raw: string };

export interface FieldClause {
  field: string;
  condition: FieldCondition;
}

export interface ParsedFilter {
  /** Conjunction of clauses. */
  all: FieldClause[];
  /** When present: at least one branch (a conjunction) must match; an empty list matches nothing. */
  anyOf: FieldClause[][] | null;
}

export interface ParsedFind {
  filter: ParsedFilter;
  /** Deduplicated; stops at `id` (unique) — the adapter appends `id asc` when `id` is absent. */
  sort: SortKey[];
  sortHasId: boolean;
  limit: number;
  offset: number;
}

export function assertFieldName(field: string): void {
  if (typeof field !== 'string' || !FIELD_NAME.test(field)) {
    throw new TypeError(`Invalid field name ${JSON.stringify(field)}: expected [A-Za-z0-9_]+`);
  }
}

export function assertCollectionName(collection: string): void {
  if (typeof collection !== 'string' || !COLLECTION_NAME.test(collection)) {
    throw new TypeError(
      `Invalid collection name ${JSON.stringify(collection)}: expected [A-Za-z0-9_-]{1,100}`,
    );
  }
}

export function assertNonEmptyString(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0)
    throw new TypeError(`${what} must be a non-empty string`);
}

export function assertPosition(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a non-negative safe integer, got ${String(value)}`);
  }
}

/** A counter's hits at once: 1 to 1,000,000. */
export function assertHits(hits: number): void {
  if (!Number.isSafeInteger(hits) || hits < 1 || hits > 1_000_000) {
    throw new RangeError(`hits must be an integer from 1 to 1000000, got ${String(hits)}`);
  }
}

export function assertIdCount(count: number): void {
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new RangeError(`count must be an integer >= 1, got ${String(count)}`);
  }
}

export function assertTtl(ttlMs: number): void {
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 1) throw new RangeError(`ttlMs must be an integer >= 1`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseScalar(value: unknown, where: string): Scalar {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new TypeError(`${where}: expected a string, finite number, boolean or null`);
}

function parseBound(value: unknown, where: string): RangeBound {
  if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) return value;
  throw new TypeError(`${where}: range bounds must be strings or finite numbers`);
}

const RANGE_OPS = ['$gt', '$gte', '$lt', '$lte'] as const;

function parseCondition(field: string, raw: unknown): FieldCondition {
  if (!isRecord(raw)) return { kind: 'eq', value: parseScalar(raw, `filter.${field}`) };
  const keys = Object.keys(raw);
  if (keys.length === 1 && keys[0] === '$in') {
    const values = raw.$in;
    if (!Array.isArray(values)) throw new TypeError(`filter.${field}.$in must be an array`);
    if (values.length > MAX_IN_VALUES)
      throw new RangeError(`filter.${field}.$in has over ${MAX_IN_VALUES} values`);
    return { kind: 'in', values: values.map((v, i) => parseScalar(v, `filter.${field}.$in[${i}]`)) };
  }
  if (keys.length === 1 && keys[0] === '$ne')
    return { kind: 'ne', value: parseScalar(raw.$ne, `filter.${field}.$ne`) };
  if (keys.length === 1 && keys[0] === '$contains') {
    const needle = raw.$contains;
    if (typeof needle !== 'string') throw new TypeError(`filter.${field}.$contains must be a string`);
    return { kind: 'contains', needle: needle.toLowerCase(), raw: needle };
  }
  if (keys.length > 0 && keys.every((k) => (RANGE_OPS as readonly string[]).includes(k))) {
    const range: Extract<FieldCondition, { kind: 'range' }> = { kind: 'range' };
    for (const op of RANGE_OPS) {
      if (op in raw)
        range[op.slice(1) as 'gt' | 'gte' | 'lt' | 'lte'] = parseBound(raw[op], `filter.${field}.${op}`);
    }
    return range;
  }
  throw new TypeError(`filter.${field}: unsupported operator object ${JSON.stringify(keys)}`);
}

function parseConjunction(filter: unknown, where: string): FieldClause[] {
  if (!isRecord(filter)) throw new TypeError(`${where} must be an object`);
  return Object.keys(filter).map((field) => {
    assertFieldName(field);
    return { field, condition: parseCondition(field, filter[field]) };
  });
}

export function parseFilter(filter: FindOptions['filter']): ParsedFilter {
  if (filter === undefined) return { all: [], anyOf: null };
  if (!isRecord(filter)) throw new TypeError('filter must be an object');
  const { $or, ...rest } = filter as Record<string, unknown>;
  const all = parseConjunction(rest, 'filter');
  if (!('$or' in filter)) return { all, anyOf: null };
  if (!Array.isArray($or)) throw new TypeError('filter.$or must be an array of filters');
  return { all, anyOf: $or.map((branch: unknown, i) => parseConjunction(branch, `filter.$or[${i}]`)) };
}

function parseSort(sort: SortKey[] | undefined): { sort: SortKey[]; sortHasId: boolean } {
  if (sort === undefined) return { sort: [], sortHasId: false };
  if (!Array.isArray(sort)) throw new TypeError('sort must be an array');
  const seen = new Set<string>();
  const out: SortKey[] = [];
  for (const key of sort) {
    if (!isRecord(key)) throw new TypeError('sort keys must be objects');
    assertFieldName(key.field);
    if (key.direction !== 'asc' && key.direction !== 'desc') {
      throw new TypeError(`sort direction for ${key.field} must be 'asc' or 'desc'`);
    }
    if (seen.has(key.field)) continue;
    seen.add(key.field);
    out.push({ field: key.field, direction: key.direction });
    if (key.field === 'id') return { sort: out, sortHasId: true }; // ids are unique: later keys never matter
  }
  return { sort: out, sortHasId: false };
}

export function parseFindOptions(options: FindOptions | undefined): ParsedFind {
  const limit = options?.limit ?? DEFAULT_LIMIT;
  const offset = options?.offset ?? 0;
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_LIMIT) {
    throw new RangeError(`limit must be an integer from 0 to ${MAX_LIMIT}, got ${String(limit)}`);
  }
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new RangeError(`offset must be a non-negative integer, got ${String(offset)}`);
  }
  return { filter: parseFilter(options?.filter), ...parseSort(options?.sort), limit, offset };
}

/** A put's document as stored: the JSON round trip every adapter applies (Dates become strings, etc.). */
export function toStoredJson(doc: ReadDocument): string {
  if (!isRecord(doc)) throw new TypeError('put: doc must be an object');
  assertNonEmptyString(doc.id, 'put: doc.id');
  for (const key of Object.keys(doc)) {
    // Reserved by MongoDB at the top level (the id is stored as _id); rejected everywhere so adapters agree.
    if (key === '_id' || key.startsWith('$')) throw new TypeError(`put: reserved top-level field ${key}`);
  }
  const json = JSON.stringify(doc);
  if (typeof json !== 'string') throw new TypeError('put: doc is not JSON-serializable');
  return json;
}

/** Validates a commit's ops before any write happens. */
export function assertWriteOps(ops: WriteOp[]): void {
  if (!Array.isArray(ops)) throw new TypeError('ops must be an array');
  for (const op of ops) {
    if (!isRecord(op)) throw new TypeError('each op must be an object');
    assertCollectionName(op.collection);
    const kind: unknown = op.op;
    if (kind === 'put') continue; // the doc is checked by toStoredJson
    if (kind !== 'delete') throw new TypeError(`unknown op ${JSON.stringify(kind)}`);
    assertNonEmptyString((op as { id?: unknown }).id, 'delete: id');
  }
}

/** The sort rows are returned in: the given keys, then `id asc` unless `id` was one of them. */
export function effectiveSort(parsed: ParsedFind): SortKey[] {
  return parsed.sortHasId ? parsed.sort : [...parsed.sort, { field: 'id', direction: 'asc' }];
}

/**
 * A collection's packed fields (CollectionOptions.packed): valid top-level names, neither `id` nor indexed (nor
 * `__proto__`); checked by every adapter, also one that stores them as given, so adapters agree.
 */
export function assertPackedFields(fields: readonly string[], indexed: readonly string[]): string[] {
  if (!Array.isArray(fields)) throw new TypeError('packed must be an array of field names');
  for (const field of fields) {
    assertFieldName(field);
    if (field === 'id' || field === '__proto__' || indexed.includes(field)) {
      throw new RangeError(`packed field ${field} cannot be packed (id, indexed, or reserved)`);
    }
  }
  return [...new Set(fields)];
}

/** Checks CollectionOptions.sparse: field names among the indexed ones; returns them as a set. */
export function assertSparseFields(fields: readonly string[], indexed: readonly string[]): Set<string> {
  if (!Array.isArray(fields)) throw new TypeError('sparse must be an array of field names');
  for (const field of fields) {
    assertFieldName(field);
    if (!indexed.includes(field)) throw new RangeError(`sparse field ${field} is not an indexed field`);
  }
  return new Set(fields);
}
