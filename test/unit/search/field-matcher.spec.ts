import { fieldMatcher } from '../../../src/infrastructure/search/sqlite/field-matcher';
import { toCondition } from '../../../src/infrastructure/search/sqlite/search-input';
import type { FilterValue, SearchFilter } from '../../../src/infrastructure/search/search-index.port';

const matcher = (filters: Record<string, SearchFilter>, anyOf?: Array<Record<string, SearchFilter>>) =>
  fieldMatcher(
    Object.entries(filters).map(([field, filter]) => toCondition(field, filter)),
    anyOf?.map((alternative) => Object.entries(alternative).map(([f, filter]) => toCondition(f, filter))),
  );

const docs: Record<string, Record<string, FilterValue>> = {
  text: { code: '1', at: '5' },
  number: { code: 1, at: 5 },
  boolean: { code: true, at: true },
  nulled: { code: null, at: null },
  missing: {},
};

const matching = (filters: Record<string, SearchFilter>, anyOf?: Array<Record<string, SearchFilter>>) => {
  const passes = matcher(filters, anyOf);
  return Object.keys(docs).filter((name) => passes(docs[name]));
};

describe('field matcher (embedded search filters)', () => {
  it('keeps JSON types apart: "1", 1 and true are different values', () => {
    expect(matching({ code: 1 })).toEqual(['number']);
    expect(matching({ code: '1' })).toEqual(['text']);
    expect(matching({ code: true })).toEqual(['boolean']);
    expect(matching({ code: false })).toEqual([]);
  });

  it('null matches a null or missing field; a list matches any of its values; an empty list nothing', () => {
    expect(matching({ code: null })).toEqual(['nulled', 'missing']);
    expect(matching({ code: ['1', null] })).toEqual(['text', 'nulled', 'missing']);
    expect(matching({ code: [] })).toEqual([]);
  });

  it('ranges admit numbers only, or_null also null and missing', () => {
    expect(matching({ at: { gte: 5 } })).toEqual(['number']);
    expect(matching({ at: { gt: 5 } })).toEqual([]);
    expect(matching({ at: { lt: 6, or_null: true } })).toEqual(['number', 'nulled', 'missing']);
    expect(matching({ at: { gt: 4, lte: 5 } })).toEqual(['number']);
  });

  it('does not read inherited properties as fields', () => {
    expect(matching({ constructor: null })).toEqual(Object.keys(docs));
    expect(matching({ ['__proto__']: { gt: 0 } })).toEqual([]);
    expect(matching({ ['__proto__']: null })).toEqual(Object.keys(docs));
  });

  it('requires every filter and one of the any_of alternatives; an empty any_of matches nothing', () => {
    expect(matching({ code: 1 }, [{ at: 5 }, { at: '5' }])).toEqual(['number']);
    expect(matching({}, [{ code: '1' }, { code: true, at: true }])).toEqual(['text', 'boolean']);
    expect(matching({}, [])).toEqual([]);
    expect(matching({})).toEqual(Object.keys(docs));
  });
});
