/**
 * Renders a parsed filter / sort (read-store-query.ts) as a MongoDB query. Plain data: this file does not
 * import the driver (mongo-read-store.ts is the only file that does).
 *
 * MongoDB already has the semantics the port asks for: `{f: null}` matches null or missing, comparisons are
 * type-bracketed (a number bound never matches a string), `$ne` matches missing fields, and the sort order is
 * null/missing < numbers < strings < objects < arrays < booleans. Except on arrays, which MongoDB matches and
 * sorts by their elements: the store keeps each top-level array wrapped in an object (mongo-arrays.ts), so it
 * is one opaque value here, as the port requires. The document id is stored as `_id`.
 */
import type { SortKey } from '../read-store.port';
import type { FieldClause, FieldCondition, ParsedFilter } from '../read-store-query';

export type MongoQuery = Record<string, unknown>;

export function mongoField(field: string): string {
  return field === 'id' ? '_id' : field;
}

/** Escapes a string so it matches itself literally inside a (PCRE) regular expression. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&').replace(/\0/g, '\\x00');
}

function conditionQuery(condition: FieldCondition): unknown {
  switch (condition.kind) {
    case 'eq':
      return condition.value;
    case 'ne':
      return { $ne: condition.value };
    case 'in':
      return { $in: condition.values };
    case 'range': {
      const range: Record<string, unknown> = {};
      if (condition.gt !== undefined) range.$gt = condition.gt;
      if (condition.gte !== undefined) range.$gte = condition.gte;
      if (condition.lt !== undefined) range.$lt = condition.lt;
      if (condition.lte !== undefined) range.$lte = condition.lte;
      return range;
    }
    case 'contains':
      return { $regex: escapeRegex(condition.raw), $options: 'i' };
  }
}

function conjunctionQuery(clauses: FieldClause[]): MongoQuery {
  const query: MongoQuery = {};
  for (const { field, condition } of clauses) query[mongoField(field)] = conditionQuery(condition);
  return query;
}

export function mongoFilter(filter: ParsedFilter): MongoQuery {
  const all = conjunctionQuery(filter.all);
  if (filter.anyOf === null) return all;
  // An empty disjunction matches nothing (MongoDB rejects an empty $or).
  if (filter.anyOf.length === 0) return { $and: [all, { _id: { $in: [] } }] };
  return { ...all, $or: filter.anyOf.map(conjunctionQuery) };
}

/** Sort keys in order (a Map keeps numeric-looking field names in place), ending with the id tie-breaker. */
export function mongoSort(sort: SortKey[]): Map<string, 1 | -1> {
  return new Map(sort.map((k) => [mongoField(k.field), k.direction === 'asc' ? 1 : -1] as const));
}
