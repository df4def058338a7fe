/**
 * Translates normalized field conditions into a SQLite WHERE fragment over a JSON `fields` column. Every value
 * and JSON path is a bound parameter; field names were validated ([a-z0-9_]+) before they get here.
 *
 * Types are kept apart as in JSON: the string "1", the number 1 and the boolean true are three different values
 * (json_extract returns 1 for true, so booleans and numbers are told apart with json_type).
 */
import type { FieldCondition } from './search-input';

export interface SqlFragment {
  sql: string;
  params: Array<string | number>;
}

const NUMERIC = `IN ('integer', 'real')`;

function jsonPath(field: string): string {
  return `$."${field}"`;
}

function placeholders(count: number): string {
  return new Array<string>(count).fill('?').join(', ');
}

function anyValueSql(column: string, field: string, values: readonly unknown[]): SqlFragment {
  const path = jsonPath(field);
  const parts: string[] = [];
  const params: Array<string | number> = [];
  const strings = values.filter((value): value is string => typeof value === 'string');
  const numbers = values.filter((value): value is number => typeof value === 'number');
  if (values.includes(null)) {
    parts.push(`json_extract(${column}, ?) IS NULL`);
    params.push(path);
  }
  if (strings.length > 0) {
    // A stored number or boolean comes back as INTEGER/REAL, never equal to a TEXT parameter.
    parts.push(`json_extract(${column}, ?) IN (${placeholders(strings.length)})`);
    params.push(path, ...strings);
  }
  if (numbers.length > 0) {
    parts.push(
      `(json_type(${column}, ?) ${NUMERIC} AND json_extract(${column}, ?) IN (${placeholders(numbers.length)}))`,
    );
    params.push(path, path, ...numbers);
  }
  for (const flag of [true, false]) {
    if (!values.includes(flag)) continue;
    parts.push(`json_type(${column}, ?) = '${String(flag)}'`);
    params.push(path);
  }
  return { sql: parts.length === 0 ? '0' : `(${parts.join(' OR ')})`, params };
}

function rangeSql(column: string, condition: Extract<FieldCondition, { kind: 'range' }>): SqlFragment {
  const path = jsonPath(condition.field);
  const parts = [`json_type(${column}, ?) ${NUMERIC}`];
  const params: Array<string | number> = [path];
  const bounds: Array<[number | undefined, string]> = [
    [condition.gt, '>'],
    [condition.gte, '>='],
    [condition.lt, '<'],
    [condition.lte, '<='],
  ];
  for (const [bound, operator] of bounds) {
    if (bound === undefined) continue;
    parts.push(`json_extract(${column}, ?) ${operator} ?`);
    params.push(path, bound);
  }
  const inRange = `(${parts.join(' AND ')})`;
  if (!condition.orNull) return { sql: inRange, params };
  return { sql: `(${inRange} OR json_extract(${column}, ?) IS NULL)`, params: [...params, path] };
}

export function conditionSql(column: string, condition: FieldCondition): SqlFragment {
  return condition.kind === 'range'
    ? rangeSql(column, condition)
    : anyValueSql(column, condition.field, condition.values);
}

function combine(fragments: SqlFragment[], operator: 'AND' | 'OR', empty: string): SqlFragment {
  if (fragments.length === 0) return { sql: empty, params: [] };
  return {
    sql: fragments.length === 1 ? fragments[0].sql : `(${fragments.map((f) => f.sql).join(` ${operator} `)})`,
    params: fragments.flatMap((f) => f.params),
  };
}

/** `filters` AND (any of the `anyOf` conjunctions). An empty `anyOf` list matches nothing. */
export function filtersSql(
  column: string,
  filters: readonly FieldCondition[],
  anyOf: ReadonlyArray<readonly FieldCondition[]> | undefined,
): SqlFragment {
  const all = filters.map((condition) => conditionSql(column, condition));
  if (anyOf !== undefined) {
    const alternatives = anyOf.map((conjunction) =>
      combine(
        conjunction.map((condition) => conditionSql(column, condition)),
        'AND',
        '1',
      ),
    );
    all.push(combine(alternatives, 'OR', '0'));
  }
  return combine(all, 'AND', '1');
}
