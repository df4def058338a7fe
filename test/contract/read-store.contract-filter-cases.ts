/**
 * The ReadStore contract's filter table: documents of mixed types and the ids each filter must find. Shared by
 * the contract suite (every adapter) and by test/unit/storage/mongo-query.spec.ts (the MongoDB translation).
 */
import type { FindOptions, ReadDocument } from '../../src/infrastructure/read-store/read-store.port';

/** Mixed types on purpose: numbers vs strings vs booleans, null vs missing, case and unicode. */
export const FILTER_DOCS: ReadDocument[] = [
  { id: 'a', n: 1, s: 'apple' },
  { id: 'b', n: 2, s: 'Banana' },
  { id: 'c', n: 10, s: '10' },
  { id: 'd', n: '2', s: 'cherry pie' },
  { id: 'e', n: 2.5, s: null },
  { id: 'f', s: 'ÉCOLE' },
  { id: 'g', n: true },
  { id: 'h', n: null, s: 'banana split' },
];

export const FILTER_CASES: Array<[title: string, filter: FindOptions['filter'], ids: string[]]> = [
  ['number equality is not string equality', { n: 2 }, ['b']],
  ['string equality is not number equality', { n: '2' }, ['d']],
  ['1 does not equal true', { n: 1 }, ['a']],
  ['boolean equality', { n: true }, ['g']],
  ['null matches null and missing', { n: null }, ['f', 'h']],
  ['string equality is case-sensitive', { s: 'banana' }, []],
  ['id equality', { id: 'b' }, ['b']],
  ['$in mixed types', { n: { $in: [1, '2', null] } }, ['a', 'd', 'f', 'h']],
  ['$in with a boolean', { n: { $in: [true, 10] } }, ['c', 'g']],
  ['$in empty matches nothing', { n: { $in: [] } }, []],
  ['$in on id', { id: { $in: ['a', 'c', 'zz'] } }, ['a', 'c']],
  ['ids are strings', { id: { $in: [1, null, true, 'h'] } }, ['h']],
  ['$ne on id', { id: { $ne: 'a' }, n: { $ne: null } }, ['b', 'c', 'd', 'e', 'g']],
  ['range on id', { id: { $gt: 'f' } }, ['g', 'h']],
  ['$ne number keeps other types and missing', { n: { $ne: 2 } }, ['a', 'c', 'd', 'e', 'f', 'g', 'h']],
  ['$ne null', { n: { $ne: null } }, ['a', 'b', 'c', 'd', 'e', 'g']],
  ['$ne string', { s: { $ne: 'apple' } }, ['b', 'c', 'd', 'e', 'f', 'g', 'h']],
  ['$ne boolean', { n: { $ne: true } }, ['a', 'b', 'c', 'd', 'e', 'f', 'h']],
  ['$gt number only matches numbers', { n: { $gt: 2 } }, ['c', 'e']],
  ['$gte', { n: { $gte: 2 } }, ['b', 'c', 'e']],
  ['$lt excludes null, missing, booleans', { n: { $lt: 2 } }, ['a']],
  ['$gt and $lte', { n: { $gt: 1, $lte: 2.5 } }, ['b', 'e']],
  ['string range', { s: { $gte: 'b', $lt: 'c' } }, ['h']],
  ['string $lt only matches strings (binary order)', { s: { $lt: 'a' } }, ['b', 'c']],
  ['string bound on a mixed field', { n: { $gt: '1' } }, ['d']],
  ['$contains is a case-insensitive substring', { s: { $contains: 'AN' } }, ['b', 'h']],
  ['$contains is unicode-aware', { s: { $contains: 'école' } }, ['f']],
  ['$contains treats regex characters literally', { s: { $contains: 'a.p' } }, []],
  ['$contains only matches strings', { n: { $contains: '1' } }, []],
  ['$contains empty matches every string', { s: { $contains: '' } }, ['a', 'b', 'c', 'd', 'f', 'h']],
  ['conjunction', { n: { $gte: 1 }, s: { $contains: 'a' } }, ['a', 'b']],
  ['$or', { $or: [{ n: 1 }, { s: 'cherry pie' }] }, ['a', 'd']],
  ['$or with a conjunction', { s: { $ne: null }, $or: [{ n: { $gt: 5 } }, { n: null }] }, ['c', 'f', 'h']],
  ['$or branch conjunctions', { $or: [{ n: { $gte: 2 }, s: { $contains: 'b' } }, { id: 'g' }] }, ['b', 'g']],
  ['empty $or matches nothing', { $or: [] }, []],
  ['$or of an empty branch matches everything', { $or: [{}] }, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']],
  ['empty filter', {}, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']],
];
