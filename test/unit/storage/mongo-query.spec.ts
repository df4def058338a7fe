/**
 * The MongoDB read store's query translation (mongo-filter.ts), checked without a server: the filters and sorts
 * it renders are run by mingo (an implementation of MongoDB's query language) over the ReadStore contract's own
 * fixtures, and must find what the contract requires of every adapter. The contract suite against a real MongoDB
 * (MONGODB_URL) stays the authority; this keeps the translation honest in every CI run.
 */
import { Query } from 'mingo';
import { unwrapArrays, wrapArrays } from '../../../src/infrastructure/read-store/mongo/mongo-arrays';
import { mongoFilter, mongoSort } from '../../../src/infrastructure/read-store/mongo/mongo-filter';
import type { FindOptions, ReadDocument } from '../../../src/infrastructure/read-store/read-store.port';
import { effectiveSort, parseFindOptions } from '../../../src/infrastructure/read-store/read-store-query';
import {
  ARRAY_DOCS,
  ARRAY_FILTER_CASES,
  ARRAY_SORT_ASC,
  ARRAY_SORT_DESC,
  inSortOrder,
} from '../../contract/read-store.contract-array-cases';
import { FILTER_CASES, FILTER_DOCS } from '../../contract/read-store.contract-filter-cases';
import { TYPE_ORDER_ASC, TYPE_ORDER_DESC, TYPE_ORDER_DOCS } from '../../contract/read-store.contract-sorting';

/** What MongoReadStore.find() asks the server, evaluated by mingo over documents stored as `{_id, ...}`. */
function mingoFind(docs: ReadDocument[], options: FindOptions): string[] {
  const stored = docs.map(({ id, ...fields }) => ({ _id: id, ...wrapArrays(fields) }));
  const parsed = parseFindOptions(options);
  const sort = Object.fromEntries(mongoSort(effectiveSort(parsed)));
  return new Query(mongoFilter(parsed.filter))
    .find<{ _id: string }>(stored)
    .sort(sort)
    .skip(parsed.offset)
    .limit(parsed.limit)
    .all()
    .map((doc) => doc._id);
}

describe('MongoDB read store query translation (evaluated by mingo)', () => {
  it.each(FILTER_CASES)('filter: %s', (_title, filter, expected) => {
    expect(mingoFind(FILTER_DOCS, { filter })).toEqual(expected);
  });

  it('sorts null/missing < numbers < strings < objects < false < true, ties by id, both directions', () => {
    const docs = [...TYPE_ORDER_DOCS].reverse();
    expect(mingoFind(docs, { sort: [{ field: 'v', direction: 'asc' }] })).toEqual(TYPE_ORDER_ASC);
    expect(mingoFind(docs, { sort: [{ field: 'v', direction: 'desc' }] })).toEqual(TYPE_ORDER_DESC);
    expect(mingoFind(docs, {})).toEqual(TYPE_ORDER_DOCS.map((doc) => doc.id));
  });

  it('pages by offset and limit after the id tie-breaker', () => {
    const docs = [...TYPE_ORDER_DOCS].reverse();
    const sort = [{ field: 'v', direction: 'asc' as const }];
    expect(mingoFind(docs, { sort, offset: 3, limit: 4 })).toEqual(TYPE_ORDER_ASC.slice(3, 7));
  });

  it.each(ARRAY_FILTER_CASES)('array filter: %s', (_title, filter, expected) => {
    expect(mingoFind(ARRAY_DOCS, { filter })).toEqual(expected);
  });

  it('sorts arrays (stored wrapped) with the objects, after strings and before booleans', () => {
    const asc = mingoFind(ARRAY_DOCS, { sort: [{ field: 't', direction: 'asc' }] });
    expect({ asc, ok: inSortOrder(asc, ARRAY_SORT_ASC) }).toEqual({ asc, ok: true });
    const desc = mingoFind(ARRAY_DOCS, { sort: [{ field: 't', direction: 'desc' }] });
    expect({ desc, ok: inSortOrder(desc, ARRAY_SORT_DESC) }).toEqual({ desc, ok: true });
  });

  it('wraps top-level arrays only, reads them back as written, and refuses a value shaped like a wrapper', () => {
    const doc = { list: [1, [2]], nested: { list: [3] }, text: 'x', none: null };
    const stored = wrapArrays(doc);
    expect(stored).toEqual({
      list: { __cairn_array: [1, [2]] },
      nested: { list: [3] },
      text: 'x',
      none: null,
    });
    expect(unwrapArrays(stored)).toEqual(doc);
    expect(() => wrapArrays({ sneaky: { __cairn_array: [] } })).toThrow(TypeError);
  });
});
