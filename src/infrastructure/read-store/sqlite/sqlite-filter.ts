/**
 * Renders a parsed filter / sort to SQL over `read_documents(collection, id, doc)`. Field names were validated
 * against [A-Za-z0-9_]+ (read-store-query.ts), so they are safe inside the JSON path literal; every value is a
 * bound parameter.
 *
 * A field's value expression (fieldValueSql) is the one the expression indexes use, so filters, sorts and counts
 * on indexed fields are index lookups/ranges. It brackets types the way MongoDB does: strings and numbers keep
 * their SQL type (json_extract), while booleans and objects/arrays — which json_extract would turn into 1/0 and
 * JSON text — become blobs that never equal a string or number. SQLite orders NULL < numbers < text < blobs,
 * hence null/missing < numbers < strings < objects/arrays < false < true, as MongoDB sorts them.
 */
import type { Scalar, SortKey } from '../read-store.port';
import type { FieldClause, FieldCondition, ParsedFilter } from '../read-store-query';

/** Registered on the connection by SqliteReadStore: unicode-aware lower-casing (SQLite's lower() is ASCII). */
export const LOWER_FN = 'cairn_read_store_lower';

export type SqlParam = string | number | Buffer | null;
export interface SqlFragment {
  sql: string;
  params: SqlParam[];
}

const BLOB_OBJECT = "x'01'";
const BLOB_FALSE = "x'02'";
const BLOB_TRUE = "x'03'";
/** The least blob: text < x'' <= every blob. */
const LEAST_BLOB = "x''";
/** The least text: numbers < '' <= every text. */
const LEAST_TEXT = "''";

/** The value expression of a field; also used verbatim by the index definitions. */
export function fieldValueSql(field: string): string {
  if (field === 'id') return 'id';
  const path = `'$.${field}'`;
  return (
    `(CASE json_type(doc, ${path}) WHEN 'true' THEN ${BLOB_TRUE} WHEN 'false' THEN ${BLOB_FALSE} ` +
    `WHEN 'object' THEN ${BLOB_OBJECT} WHEN 'array' THEN ${BLOB_OBJECT} ELSE json_extract(doc, ${path}) END)`
  );
}

const TRUE_PARAM = Buffer.from([3]);
const FALSE_PARAM = Buffer.from([2]);

function param(value: Exclude<Scalar, null>): SqlParam {
  if (typeof value === 'boolean') return value ? TRUE_PARAM : FALSE_PARAM;
  return value;
}

function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

function eq(v: string, value: Scalar): SqlFragment {
  if (value === null) return { sql: `${v} IS NULL`, params: [] };
  return { sql: `${v} = ?`, params: [param(value)] };
}

function ne(v: string, value: Scalar): SqlFragment {
  // IS NOT never yields NULL: a missing field matches $ne (as in MongoDB).
  if (value === null) return { sql: `${v} IS NOT NULL`, params: [] };
  return { sql: `${v} IS NOT ?`, params: [param(value)] };
}

function inList(v: string, values: Scalar[]): SqlFragment {
  const nonNull = values.filter((x): x is Exclude<Scalar, null> => x !== null);
  const parts: string[] = [];
  if (nonNull.length > 0) parts.push(`${v} IN (${placeholders(nonNull.length)})`);
  if (nonNull.length < values.length) parts.push(`${v} IS NULL`);
  if (parts.length === 0) return { sql: '0', params: [] };
  return { sql: `(${parts.join(' OR ')})`, params: nonNull.map(param) };
}

const RANGE_SQL = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function range(v: string, cond: Extract<FieldCondition, { kind: 'range' }>): SqlFragment {
  const parts: string[] = [];
  const params: SqlParam[] = [];
  for (const op of ['gt', 'gte', 'lt', 'lte'] as const) {
    const bound = cond[op];
    if (bound === undefined) continue;
    parts.push(`${v} ${RANGE_SQL[op]} ?`);
    params.push(bound);
    // Type bracketing, as one index range: numbers lie below '', strings from '' up to the least blob.
    parts.push(
      typeof bound === 'number' ? `${v} < ${LEAST_TEXT}` : `${v} >= ${LEAST_TEXT} AND ${v} < ${LEAST_BLOB}`,
    );
  }
  return { sql: `(${parts.join(' AND ')})`, params };
}

function contains(v: string, needle: string): SqlFragment {
  return { sql: `(typeof(${v}) = 'text' AND instr(${LOWER_FN}(${v}), ?) > 0)`, params: [needle] };
}

/**
 * Ids are strings, and the `id` column has TEXT affinity, which would turn a bound number into text before
 * comparing ('5' = 5). So non-string values are decided here: they never equal an id.
 */
function idCondition(condition: FieldCondition): FieldCondition | SqlFragment {
  const never = { sql: '0', params: [] };
  switch (condition.kind) {
    case 'eq':
      return typeof condition.value === 'string' ? condition : never;
    case 'ne':
      return typeof condition.value === 'string' ? condition : { sql: '1', params: [] };
    case 'in':
      return { kind: 'in', values: condition.values.filter((v) => typeof v === 'string') };
    case 'range':
      return [condition.gt, condition.gte, condition.lt, condition.lte].some((b) => typeof b === 'number')
        ? never
        : condition;
    case 'contains':
      return condition;
  }
}

function clauseSql(clause: FieldClause): SqlFragment {
  const v = fieldValueSql(clause.field);
  const condition = clause.field === 'id' ? idCondition(clause.condition) : clause.condition;
  if (!('kind' in condition)) return condition;
  switch (condition.kind) {
    case 'eq':
      return eq(v, condition.value);
    case 'ne':
      return ne(v, condition.value);
    case 'in':
      return inList(v, condition.values);
    case 'range':
      return range(v, condition);
    case 'contains':
      return contains(v, condition.needle);
  }
}

function conjunctionSql(clauses: FieldClause[]): SqlFragment {
  if (clauses.length === 0) return { sql: '1', params: [] };
  const parts = clauses.map(clauseSql);
  return { sql: parts.map((p) => p.sql).join(' AND '), params: parts.flatMap((p) => p.params) };
}

/** The WHERE condition (without the collection) for a parsed filter. */
export function filterSql(filter: ParsedFilter): SqlFragment {
  const all = conjunctionSql(filter.all);
  if (filter.anyOf === null) return all;
  if (filter.anyOf.length === 0) return { sql: '0', params: [] };
  const branches = filter.anyOf.map(conjunctionSql);
  return {
    sql: `${all.sql} AND (${branches.map((b) => `(${b.sql})`).join(' OR ')})`,
    params: [...all.params, ...branches.flatMap((b) => b.params)],
  };
}

/** ORDER BY terms for an effective sort (which already ends with the id tie-breaker). */
export function orderBySql(sort: SortKey[]): string {
  return sort.map((k) => `${fieldValueSql(k.field)} ${k.direction === 'asc' ? 'ASC' : 'DESC'}`).join(', ');
}
