/**
 * Normalized field conditions as one predicate over a document's parsed `fields`, evaluated in memory on the
 * candidates the ranking selected (cheaper than JSON path expressions per row in SQL).
 *
 * Types are kept apart as in JSON: the string "1", the number 1 and the boolean true are three different values;
 * null matches a null or missing field; ranges admit numbers only (`orNull` also null or missing).
 */
import type { FilterValue } from '../search-index.port';
import type { FieldCondition } from './search-input';

export type FieldMatcher = (fields: Readonly<Record<string, FilterValue>>) => boolean;

function valueOf(fields: Readonly<Record<string, FilterValue>>, field: string): FilterValue {
  return Object.hasOwn(fields, field) ? fields[field] : null;
}

function conditionMatcher(condition: FieldCondition): FieldMatcher {
  const { field } = condition;
  if (condition.kind === 'any_value') {
    // Set membership is SameValueZero, which never confuses types: "1", 1 and true stay distinct.
    const values = new Set<FilterValue>(condition.values);
    return (fields) => values.has(valueOf(fields, field));
  }
  const { gt, gte, lt, lte, orNull } = condition;
  return (fields) => {
    const value = valueOf(fields, field);
    if (value === null) return orNull;
    return (
      typeof value === 'number' &&
      (gt === undefined || value > gt) &&
      (gte === undefined || value >= gte) &&
      (lt === undefined || value < lt) &&
      (lte === undefined || value <= lte)
    );
  };
}

function all(matchers: readonly FieldMatcher[]): FieldMatcher {
  return (fields) => matchers.every((matches) => matches(fields));
}

/** `filters` AND (any of the `anyOf` conjunctions). An empty `anyOf` list matches nothing. */
export function fieldMatcher(
  filters: readonly FieldCondition[],
  anyOf: ReadonlyArray<readonly FieldCondition[]> | undefined,
): FieldMatcher {
  const required = filters.map(conditionMatcher);
  if (anyOf !== undefined) {
    const alternatives = anyOf.map((conjunction) => all(conjunction.map(conditionMatcher)));
    required.push((fields) => alternatives.some((matches) => matches(fields)));
  }
  return all(required);
}
