/**
 * Normalized field conditions as one predicate over a document's parsed `fields`, evaluated in memory on the
 * candidates the ranking selected (cheaper than JSON path expressions per row in SQL).
 *
 * Types are kept apart as in JSON: the string "1", the number 1 and the boolean true are three different values;
 * null matches a null or missing field; ranges admit numbers only (`orNull` also null or missing).
 */
import { SEARCH_EXPIRY_FIELD, type FilterValue } from '../search-index.port';
import type { FieldCondition } from './search-input';

export type FieldMatcher = (fields: Readonly<Record<string, FilterValue>>) => boolean;

/**
 * A field's value as stored (null when null or missing). Stored values are strings, numbers, booleans or null, so
 * an object or function read through a missing name is the prototype's (`constructor`, `__proto__`): missing.
 * (Cheaper than Object.hasOwn before every read; each matcher reads `fields[field]` at its own site.)
 */
function stored(value: unknown): FilterValue {
  return value === undefined || typeof value === 'object' || typeof value === 'function'
    ? null
    : (value as FilterValue);
}

function conditionMatcher(condition: FieldCondition): FieldMatcher {
  const { field } = condition;
  if (condition.kind === 'any_value') {
    // One value (the common case): strict equality, which never confuses types either ("1", 1 and true).
    if (condition.values.length === 1) {
      const only = condition.values[0];
      return (fields) => stored(fields[field]) === only;
    }
    // Set membership is SameValueZero, which never confuses types: "1", 1 and true stay distinct.
    const values = new Set<FilterValue>(condition.values);
    return (fields) => values.has(stored(fields[field]));
  }
  // Absent bounds as infinities: one comparison each, no test for whether a bound is set (values are finite).
  const gt = condition.gt ?? -Infinity;
  const gte = condition.gte ?? -Infinity;
  const lt = condition.lt ?? Infinity;
  const lte = condition.lte ?? Infinity;
  const { orNull } = condition;
  return (fields) => {
    const value = stored(fields[field]);
    if (value === null) return orNull;
    return typeof value === 'number' && value > gt && value >= gte && value < lt && value <= lte;
  };
}

/**
 * Plain loops rather than every()/some() with a closure per call: the matcher runs on up to 1,000 rows per search
 * (a limit-100 memory search asks for 1,000 chunks).
 */
function all(matchers: readonly FieldMatcher[]): FieldMatcher {
  if (matchers.length === 1) return matchers[0];
  return (fields) => {
    for (let i = 0; i < matchers.length; i++) if (!matchers[i](fields)) return false;
    return true;
  };
}

function any(matchers: readonly FieldMatcher[]): FieldMatcher {
  return (fields) => {
    for (let i = 0; i < matchers.length; i++) if (matchers[i](fields)) return true;
    return false;
  };
}

/** `filters` AND (any of the `anyOf` conjunctions). An empty `anyOf` list matches nothing. */
export function fieldMatcher(
  filters: readonly FieldCondition[],
  anyOf: ReadonlyArray<readonly FieldCondition[]> | undefined,
): FieldMatcher {
  const required = filters.map(conditionMatcher);
  if (anyOf !== undefined)
    required.push(any(anyOf.map((conjunction) => all(conjunction.map(conditionMatcher)))));
  return required.length === 0 ? () => true : all(required);
}

/**
 * The documents whose kept SEARCH_EXPIRY_FIELD value (`expiry` by document number, document-lengths.ts; NaN:
 * unknown) fails a condition of the conjunction `filters` on that field, as a predicate on document numbers; null
 * when no condition names the field. Only a number is judged, as the row's filter judges it, so a document the
 * predicate leaves in is still filtered on its row, and one it takes out would have failed there.
 */
export function failingExpiry(
  filters: readonly FieldCondition[],
  expiry: Float64Array,
): ((doc: number) => boolean) | null {
  const matchers = filters
    .filter((condition) => condition.field === SEARCH_EXPIRY_FIELD)
    .map(conditionMatcher);
  if (matchers.length === 0) return null;
  // One object reused for every document: the matchers read one field of it.
  const fields: Record<string, FilterValue> = { [SEARCH_EXPIRY_FIELD]: null };
  return (doc) => {
    const value = expiry[doc];
    if (Number.isNaN(value)) return false;
    fields[SEARCH_EXPIRY_FIELD] = value;
    for (let i = 0; i < matchers.length; i++) if (!matchers[i](fields)) return true;
    return false;
  };
}
