/**
 * The embedded index keeps each document's SEARCH_EXPIRY_FIELD in its slot (document-lengths.ts) and leaves out,
 * while ranking, the documents a query's condition on it fails: expired items are never scored nor read. Results
 * are exactly those of filtering the rows after ranking (the contract); these tests also count the rows read.
 */
import { join } from 'node:path';
import type { FilterValue, SearchQuery } from '../../src/infrastructure/search/search-index.port';
import { DocumentWriter } from '../../src/infrastructure/search/sqlite/document-writer';
import type { RankedDoc } from '../../src/infrastructure/search/sqlite/max-score';
import { SqliteSearchIndex } from '../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite, type SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';
import { cutSlots } from '../support/search-slots';
import { makeTempDir } from '../support/temp-dir';

const NOW = Date.parse('2026-11-28T00:00:00Z');
const LIVE = { expires_at_ms: { gt: NOW, or_null: true } };
const collapse = { field: 'memory_item_id', max_members: 10 };

/** Item `item`'s chunk `part`: `words` of "moraine" (more rank higher), expiring at `expires` (null: never). */
function chunk(item: number, part: number, words: number, expires: FilterValue) {
  return {
    id: `c${item}-${part}`,
    organization_id: 'org',
    title: `item ${item}`,
    body: `${'moraine '.repeat(words)}valley ${'ice '.repeat(20 - words)}`,
    fields: { memory_item_id: item, expires_at_ms: expires },
    version: 1,
  };
}

describe('SQLite search index: documents past their expiry left out while ranking', () => {
  const temp = makeTempDir('cairn-search-expiry-');
  let db: SqliteDatabase;
  let index: SqliteSearchIndex;
  /** Document ids whose rows a search looked up (the index's rowsFor). */
  let read: string[];

  const watch = (watched: SqliteSearchIndex) => {
    const internals = watched as unknown as {
      rowsFor: (org: unknown, matches: RankedDoc[]) => Array<{ id: string } | undefined>;
    };
    const rowsFor = internals.rowsFor.bind(watched);
    internals.rowsFor = (org, matches) => {
      const rows = rowsFor(org, matches);
      for (const row of rows) if (row !== undefined) read.push(row.id);
      return rows;
    };
  };

  beforeEach(async () => {
    db = openSqlite({ path: join(temp.dir, `expiry-${Date.now()}-${Math.random()}.sqlite`) });
    index = new SqliteSearchIndex(db);
    watch(index);
    read = [];
    // 40 expired items of 3 chunks that outrank everything, 12 live items (some never expire, some later).
    const expired = Array.from({ length: 40 }, (_, i) =>
      [0, 1, 2].map((part) => chunk(100 + i, part, 15, NOW - 1000 * (i + 1))),
    ).flat();
    const live = Array.from({ length: 12 }, (_, i) =>
      chunk(i + 1, 0, 1 + (i % 5), i % 2 ? null : NOW + 60_000),
    );
    // Expiring exactly now: `gt` fails it.
    await index.upsert([...expired, ...live, chunk(99, 0, 14, NOW)]);
  });
  afterEach(async () => {
    await index.close();
    db.close();
  });
  afterAll(() => temp.cleanup());

  const search = (query: Partial<SearchQuery>) =>
    index.search({ organization_id: 'org', text: 'moraine', ...query });
  const expiredId = (id: string) => /^c(99|1\d\d)-/.test(id);

  it.each([
    ['plain', {}],
    ['collapsed', { collapse }],
  ])('%s: exactly the filtered answer, and no expired row read', async (_, shape) => {
    const all = await search({ ...shape, limit: 1000 });
    read = [];
    const hits = await search({ ...shape, limit: 5, filters: LIVE });
    const expected = all.filter((hit) => !expiredId(hit.id)).slice(0, 5);
    expect(hits.map((hit) => [hit.id, hit.score])).toEqual(expected.map((hit) => [hit.id, hit.score]));
    expect(hits).toHaveLength(5);
    expect(read.filter(expiredId)).toEqual([]);
  });

  it('follows an expiry changed without the text (a touched document), both ways', async () => {
    await index.upsert([
      { ...chunk(100, 0, 15, null), version: 2 },
      { ...chunk(1, 0, 1, NOW - 1), version: 2 },
    ]);
    const ids = (await search({ limit: 100, filters: LIVE })).map((hit) => hit.id);
    expect(ids).toContain('c100-0');
    expect(ids).not.toContain('c1-0');
    expect(ids[0]).toBe('c100-0');
  });

  it('judges only numbers in memory: other values are the row filter’s to refuse', async () => {
    await index.upsert([chunk(200, 0, 16, 'soon'), chunk(201, 0, 16, true)]);
    read = [];
    const ids = (await search({ limit: 100, filters: LIVE })).map((hit) => hit.id);
    expect(ids).not.toContain('c200-0');
    expect(ids).not.toContain('c201-0');
    expect(read).toEqual(expect.arrayContaining(['c200-0', 'c201-0']));
    // A condition in any_of is not used in memory (only the conjunction is): still the right answer.
    const anyOf = (await search({ limit: 100, any_of: [LIVE] })).map((hit) => hit.id);
    expect(anyOf.sort()).toEqual([...ids].sort());
  });

  it('re-indexes layout 9 (slots without expiry) when opened, and leaves expired documents out then', async () => {
    await index.close();
    cutSlots(db, 14);
    db.exec(`UPDATE search_index_meta SET value = '9.1' WHERE key = 'version'`);
    const reindex = jest.spyOn(DocumentWriter.prototype, 'reindexAll');
    try {
      index = new SqliteSearchIndex(db);
      expect(reindex).toHaveBeenCalledTimes(1);
    } finally {
      reindex.mockRestore();
    }
    watch(index);
    read = [];
    const hits = await search({ limit: 5, filters: LIVE, collapse });
    expect(hits).toHaveLength(5);
    expect(hits.some((hit) => expiredId(hit.id))).toBe(false);
    expect(read.filter(expiredId)).toEqual([]);
  });
});
