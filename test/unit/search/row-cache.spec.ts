import { type CachedRow, RowCache, rowBytes } from '../../../src/infrastructure/search/sqlite/row-cache';

/** A chunk-like row of document `n` (ids of one length) with a title of `titleChars` characters. */
function row(n: number, titleChars = 30): CachedRow {
  return {
    id: `chunk-${String(n).padStart(3, '0')}`,
    title: 't'.repeat(titleChars),
    fields: { memory_item_id: n, visibility: 'organization_internal', owner_client_key: null },
  };
}

describe('RowCache (looked-up search rows, bounded in bytes)', () => {
  it('estimates a row from its strings and fields: a longer title or another field costs more', () => {
    expect(rowBytes(row(1, 60)) - rowBytes(row(1, 30))).toBe(60);
    const more = { ...row(1), fields: { ...row(1).fields, audience: 'internal' } };
    expect(rowBytes(more)).toBe(rowBytes(row(1)) + 8 + 'internal'.length);
  });

  it('keeps rows while they fit the budget, then starts over: never more bytes than the budget', () => {
    const each = rowBytes(row(1));
    const cache = new RowCache(10 * each);
    const rows = cache.rowsOf(1, 'g1');
    for (let n = 0; n < 10; n++) cache.add(rows, n, row(n));
    expect(cache.size).toBe(10 * each);
    expect(rows.get(0)).toEqual(row(0));
    cache.add(rows, 10, row(10));
    expect(cache.size).toBe(each);
    expect(rows.get(0)).toBeUndefined();
    expect(rows.get(10)).toEqual(row(10));
    for (let n = 11; n < 100; n++) {
      cache.add(rows, n, row(n));
      expect(cache.size).toBeLessThanOrEqual(10 * each);
    }
  });

  it('counts larger rows as larger: a budget of ten short rows holds fewer long ones', () => {
    const cache = new RowCache(10 * rowBytes(row(1)));
    const rows = cache.rowsOf(1, 'g1');
    for (let n = 0; n < 10; n++) cache.add(rows, n, row(n, 300));
    const kept = Array.from({ length: 10 }, (_, n) => rows.get(n)).filter((kept) => kept !== undefined);
    expect(kept.length).toBeLessThan(10);
    expect(cache.size).toBeLessThanOrEqual(10 * rowBytes(row(1)));
  });

  it('counts a row added again once', () => {
    const cache = new RowCache(1_000_000);
    const rows = cache.rowsOf(1, 'g1');
    cache.add(rows, 1, row(1));
    cache.add(rows, 1, row(1, 60));
    expect(cache.size).toBe(rowBytes(row(1, 60)));
  });

  it("gives back an organization's bytes when its generation moves, and keeps nothing added to the old one", () => {
    const cache = new RowCache(1_000_000);
    const old = cache.rowsOf(1, 'g1');
    cache.add(old, 1, row(1));
    const other = cache.rowsOf(2, 'g1');
    cache.add(other, 1, row(1));
    const current = cache.rowsOf(1, 'g2');
    expect(current.get(1)).toBeUndefined();
    expect(cache.size).toBe(rowBytes(row(1)));
    cache.add(old, 2, row(2));
    expect(cache.size).toBe(rowBytes(row(1)));
    expect(cache.rowsOf(1, 'g2').get(2)).toBeUndefined();
    cache.clear();
    expect(cache.size).toBe(0);
    cache.add(other, 3, row(3));
    expect(cache.size).toBe(0);
  });
});
