/**
 * Validation and normalization of SearchIndex inputs, shared by every adapter so they accept and reject the same
 * things: documents, deletes and queries (limit, title boost, filters). Pure functions, no engine.
 */
import {
  MAX_EXCLUDED_VALUES,
  SEARCH_EXPIRY_FIELD,
  type FilterValue,
  type SearchDocument,
  type SearchFilter,
  type SearchQuery,
} from '../search-index.port';
import { analyzeQuery, type QueryTerm } from './query-terms';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 1000;
/**
 * The most members a collapsed hit lists (SearchQuery.collapse.max_members): Elasticsearch's default
 * `index.max_inner_result_window`.
 */
export const MAX_MEMBERS = 100;
/** Title and body weigh the same: BM25 over the two as one field ("flat", see bm25.ts). */
export const DEFAULT_TITLE_BOOST = 1;

const FIELD_KEY = /^[a-z0-9_]+$/;
const RANGE_KEYS: ReadonlySet<string> = new Set(['gt', 'gte', 'lt', 'lte', 'or_null']);

/** One condition on one field of `fields`. */
export type FieldCondition =
  /** The field equals one of `values` (null: the field is null or missing). No values: matches nothing. */
  | { kind: 'any_value'; field: string; values: FilterValue[] }
  /** A numeric field within the bounds (all optional); `orNull` also admits null or missing. */
  | { kind: 'range'; field: string; gt?: number; gte?: number; lt?: number; lte?: number; orNull: boolean };

export interface NormalizedQuery {
  organizationId: string;
  /** Distinct analyzed terms of the text with their counts; empty means the query matches nothing. */
  terms: QueryTerm[];
  /** The text's words behind `terms` (stop words and symbols gone), for engines that analyze text themselves. */
  words: string[];
  limit: number;
  titleBoost: number;
  /** Conjunction. */
  filters: FieldCondition[];
  /** Undefined: no alternative constraint. Otherwise a disjunction of conjunctions (empty: matches nothing). */
  anyOf: FieldCondition[][] | undefined;
  /** One hit per value of this field, with at most `maxMembers` members (SearchQuery.collapse); or undefined. */
  collapse:
    { field: string; maxMembers: number; values?: number[]; excluded?: ReadonlySet<number> } | undefined;
}

/**
 * The value documents collapse by (SearchQuery.collapse): the field's value when it is a non-negative safe
 * integer, otherwise -1 (the document is its own hit).
 */
export function collapseValue(fields: Readonly<Record<string, FilterValue>>, field: string): number {
  const value = fields[field];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : -1;
}

/**
 * The value a document's slot keeps of SEARCH_EXPIRY_FIELD (document-lengths.ts): the field's value when it is a
 * finite number, otherwise NaN (null, missing, or another type: only the row's filter can tell).
 */
export function expiryValue(fields: Readonly<Record<string, FilterValue>>): number {
  const value = Object.hasOwn(fields, SEARCH_EXPIRY_FIELD) ? fields[SEARCH_EXPIRY_FIELD] : null;
  return typeof value === 'number' && Number.isFinite(value) ? value : NaN;
}

/** `collapseField`: the one field the index can collapse by (undefined: none). */
function toCollapse(
  collapse: SearchQuery['collapse'],
  collapseField: string | undefined,
): NormalizedQuery['collapse'] {
  if (collapse === undefined) return undefined;
  if (typeof collapse !== 'object' || collapse === null) throw new TypeError('collapse must be an object');
  if (typeof collapse.field !== 'string') throw new TypeError('collapse.field must be a string');
  requireFieldKey(collapse.field);
  const maxMembers = collapse.max_members;
  if (!Number.isInteger(maxMembers) || maxMembers < 1 || maxMembers > MAX_MEMBERS) {
    throw new RangeError(
      `collapse.max_members must be an integer from 1 to ${MAX_MEMBERS}, got ${String(maxMembers)}`,
    );
  }
  if (collapse.field !== collapseField) {
    throw new TypeError(
      `collapse by ${collapse.field}: this index keeps the values of ${collapseField ?? 'no field'} only`,
    );
  }
  const excluded = toExcluded(collapse.excluded_values);
  const restricted = excluded === undefined ? {} : { excluded };
  if (collapse.values === undefined) return { field: collapse.field, maxMembers, ...restricted };
  const values: unknown = collapse.values;
  if (
    !Array.isArray(values) ||
    values.length > MAX_LIMIT ||
    !values.every((value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)
  ) {
    throw new TypeError(`collapse.values must be at most ${MAX_LIMIT} non-negative integers`);
  }
  const kept = [...new Set(values as number[])];
  // Both: the values not excluded (an excluded value's documents are out, whichever list names it).
  return {
    field: collapse.field,
    maxMembers,
    values: excluded === undefined ? kept : kept.filter((value) => !excluded.has(value)),
    ...restricted,
  };
}

/** SearchQuery.collapse.excluded_values checked (undefined or empty: none); the caller's set itself, not a copy. */
function toExcluded(excluded: unknown): ReadonlySet<number> | undefined {
  if (excluded === undefined) return undefined;
  let valid = excluded instanceof Set && excluded.size <= MAX_EXCLUDED_VALUES;
  // A loop, not a spread: the set (up to 65,536 values, passed at every search) is not copied.
  for (const value of valid ? (excluded as Set<unknown>) : [])
    if (!(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)) valid = false;
  if (!valid) {
    throw new TypeError(
      `collapse.excluded_values must be a Set of at most ${MAX_EXCLUDED_VALUES} non-negative integers`,
    );
  }
  const set = excluded as ReadonlySet<number>;
  return set.size === 0 ? undefined : set;
}

function isFilterValue(value: unknown): value is FilterValue {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function requireNonEmptyString(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw new TypeError(`${what} must be a non-empty string`);
  return value;
}

function requireVersion(value: unknown, id: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`search document ${id}: version must be a non-negative safe integer`);
  }
  return value;
}

/** Refuses a field name outside [a-z0-9_]+ (TypeError): names are safe in SQL paths and Elasticsearch fields. */
export function requireFieldKey(key: string): void {
  if (!FIELD_KEY.test(key))
    throw new TypeError(`search field name ${JSON.stringify(key)} must match [a-z0-9_]+`);
}

export function validateDocuments(documents: readonly SearchDocument[]): void {
  for (const document of documents) {
    const id = requireNonEmptyString(document.id, 'search document id');
    requireNonEmptyString(document.organization_id, `search document ${id}: organization_id`);
    if (typeof document.title !== 'string' || typeof document.body !== 'string') {
      throw new TypeError(`search document ${id}: title and body must be strings`);
    }
    requireVersion(document.version, id);
    const fields: unknown = document.fields;
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
      throw new TypeError(`search document ${id}: fields must be an object`);
    }
    for (const [key, value] of Object.entries(fields)) {
      requireFieldKey(key);
      if (!isFilterValue(value)) {
        throw new TypeError(
          `search document ${id}: field ${key} must be a string, finite number, boolean or null`,
        );
      }
    }
  }
}

export function validateDeletes(items: ReadonlyArray<{ id: string; version: number }>): void {
  for (const item of items)
    requireVersion(item.version, requireNonEmptyString(item.id, 'search document id'));
}

function optionalBound(range: Record<string, unknown>, key: string, field: string): number | undefined {
  const value = range[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new TypeError(`filter ${field}: ${key} must be a finite number`);
  }
  return value;
}

export function toCondition(field: string, filter: SearchFilter): FieldCondition {
  requireFieldKey(field);
  const raw: unknown = filter;
  if (isFilterValue(raw)) return { kind: 'any_value', field, values: [raw] };
  if (Array.isArray(raw)) {
    const values: unknown[] = raw;
    if (!values.every(isFilterValue)) throw new TypeError(`filter ${field}: every value must be a scalar`);
    return { kind: 'any_value', field, values: values.filter(isFilterValue) };
  }
  if (typeof raw !== 'object' || raw === null) throw new TypeError(`filter ${field}: unsupported filter`);
  const range = raw as Record<string, unknown>;
  for (const key of Object.keys(range)) {
    if (!RANGE_KEYS.has(key))
      throw new TypeError(`filter ${field}: unknown range key ${JSON.stringify(key)}`);
  }
  if (range.or_null !== undefined && typeof range.or_null !== 'boolean') {
    throw new TypeError(`filter ${field}: or_null must be a boolean`);
  }
  return {
    kind: 'range',
    field,
    gt: optionalBound(range, 'gt', field),
    gte: optionalBound(range, 'gte', field),
    lt: optionalBound(range, 'lt', field),
    lte: optionalBound(range, 'lte', field),
    orNull: range.or_null === true,
  };
}

function toConditions(filters: Record<string, SearchFilter> | undefined): FieldCondition[] {
  if (filters === undefined) return [];
  if (typeof filters !== 'object' || filters === null) throw new TypeError('filters must be an object');
  return Object.entries(filters).map(([field, filter]) => toCondition(field, filter));
}

/**
 * Validates a query (throws TypeError / RangeError) and returns it normalized. `collapseField`: the field the
 * index keeps collapse values of (a collapse by any other is refused).
 */
export function normalizeQuery(query: SearchQuery, collapseField: string | undefined): NormalizedQuery {
  const organizationId = requireNonEmptyString(query.organization_id, 'organization_id');
  if (typeof query.text !== 'string') throw new TypeError('text must be a string');
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new RangeError(`limit must be an integer from 1 to ${MAX_LIMIT}, got ${String(limit)}`);
  }
  const titleBoost = query.title_boost ?? DEFAULT_TITLE_BOOST;
  if (typeof titleBoost !== 'number' || !Number.isFinite(titleBoost) || titleBoost < 0) {
    throw new RangeError(`title_boost must be a finite number >= 0, got ${String(titleBoost)}`);
  }
  if (query.any_of !== undefined && !Array.isArray(query.any_of))
    throw new TypeError('any_of must be an array');
  const { terms, words } = analyzeQuery(query.text);
  return {
    organizationId,
    terms,
    words,
    limit,
    titleBoost,
    filters: toConditions(query.filters),
    anyOf: query.any_of?.map((alternative) => toConditions(alternative)),
    collapse: toCollapse(query.collapse, collapseField),
  };
}
