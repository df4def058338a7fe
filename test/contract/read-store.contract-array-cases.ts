/**
 * The ReadStore contract on array values (shared by the contract suite and the mingo check of the MongoDB
 * translation, test/unit/storage/mongo-query.spec.ts). An array is one opaque value, like an object: it never
 * equals, falls in a range of, or contains a scalar, even one of its elements (MongoDB would match elements),
 * so `$ne` matches it; and it sorts with the objects, after strings and before booleans (MongoDB would sort an
 * array by its least or greatest element). Among themselves, arrays and objects come in an order of the
 * adapter's choosing (the embedded store: by id; MongoDB: by content), the same on every page.
 */
import type { FindOptions, ReadDocument } from '../../src/infrastructure/read-store/read-store.port';

export const ARRAY_DOCS: ReadDocument[] = [
  { id: 'a', t: ['x', 'y'] },
  { id: 'b', t: 'x' },
  { id: 'c', t: [1, 5] },
  { id: 'd', t: 3 },
  { id: 'e', t: [] },
  { id: 'f', t: [null] },
  { id: 'g' },
  { id: 'h', t: [['x']] },
  { id: 'i', t: { k: 1 } },
  { id: 'j', t: [true] },
  { id: 'k', t: false },
];

export const ARRAY_FILTER_CASES: Array<[title: string, filter: FindOptions['filter'], ids: string[]]> = [
  ['a string never equals an array holding it', { t: 'x' }, ['b']],
  ['a number never equals an array holding it', { t: 1 }, []],
  ['a boolean never equals an array holding it', { t: true }, []],
  ['null matches null and missing, not an array holding null', { t: null }, ['g']],
  ['$in never matches array elements', { t: { $in: ['y', 5, null] } }, ['g']],
  ['$ne matches every array', { t: { $ne: 'x' } }, ['a', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k']],
  ['$ne null matches every array', { t: { $ne: null } }, ['a', 'b', 'c', 'd', 'e', 'f', 'h', 'i', 'j', 'k']],
  ['a range never matches array elements', { t: { $gt: 2 } }, ['d']],
  ['a string range never matches array elements', { t: { $gte: 'x' } }, ['b']],
  ['$contains never matches array elements', { t: { $contains: 'x' } }, ['b']],
  ['$or over arrays', { $or: [{ t: 3 }, { t: 'y' }] }, ['d']],
];

/** Ascending: the scalars before and after the arrays and objects, which come in between in any order. */
export const ARRAY_SORT_ASC = {
  before: ['g', 'd', 'b'],
  between: ['a', 'c', 'e', 'f', 'h', 'i', 'j'],
  after: ['k'],
};
export const ARRAY_SORT_DESC = { before: ['k'], between: ARRAY_SORT_ASC.between, after: ['b', 'd', 'g'] };

/** Whether `ids` is in the order `expected` describes. */
export function inSortOrder(ids: string[], expected: typeof ARRAY_SORT_ASC): boolean {
  const { before, between, after } = expected;
  const middle = ids.slice(before.length, ids.length - after.length);
  return (
    ids.length === before.length + between.length + after.length &&
    JSON.stringify(ids.slice(0, before.length)) === JSON.stringify(before) &&
    JSON.stringify(ids.slice(ids.length - after.length)) === JSON.stringify(after) &&
    JSON.stringify([...middle].sort()) === JSON.stringify(between)
  );
}
