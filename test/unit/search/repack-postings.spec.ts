import { join } from 'node:path';
import { repackPostings } from '../../../src/infrastructure/search/sqlite/search-schema';
import { SqliteSearchIndex } from '../../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { storedDigest } from '../../support/search-digest';
import { makeTempDir } from '../../support/temp-dir';

/** repackPostings (called by Stores.compact at the end of memory:ingest): the postings table rewritten in key order. */
describe('repackPostings', () => {
  const temp = makeTempDir('cairn-repack-');
  afterAll(() => temp.cleanup());

  const WORDS = 'moraine cirque tarn scree col arete serac firn couloir bergschrund'.split(' ');
  /** 12,000 documents in deferred batches: two partitions stored at 8,192, the third at refresh. */
  async function fragmented(name: string): Promise<{ db: SqliteDatabase; index: SqliteSearchIndex }> {
    const db = openSqlite({ path: join(temp.dir, `${name}.sqlite`) });
    const index = new SqliteSearchIndex(db);
    const docs = Array.from({ length: 12_000 }, (_, n) => ({
      id: `d${n}`,
      organization_id: 'org',
      title: `t${n}`,
      body: `${WORDS[n % WORDS.length]} w${n % 3001} v${(n * 7) % 2003} u${n}`,
      fields: {},
      version: 1,
    }));
    for (let start = 0; start < docs.length; start += 1_000)
      await index.write(
        docs.slice(start, start + 1_000).map((document) => ({ kind: 'upsert' as const, document })),
        { defer_visibility: true },
      );
    await index.refresh();
    return { db, index };
  }
  const pages = (db: SqliteDatabase) =>
    db.prepare(`SELECT count(*) FROM dbstat WHERE name = 'search_index_postings'`).pluck().get() as number;

  it('rewrites the rows into fewer pages, the same rows and the same answers', async () => {
    const { db, index } = await fragmented('small');
    const before = { pages: pages(db), digest: storedDigest(db) };
    const hits = await index.search({ organization_id: 'org', text: 'serac w17', limit: 20 });
    expect(repackPostings(db)).toBe(true);
    expect(pages(db)).toBeLessThan(before.pages);
    expect(storedDigest(db)).toBe(before.digest);
    const fresh = new SqliteSearchIndex(db);
    expect(await fresh.search({ organization_id: 'org', text: 'serac w17', limit: 20 })).toEqual(hits);
    await index.close();
    db.close();
  }, 30_000);

  it('leaves a file over the bound as it is', async () => {
    const { db, index } = await fragmented('large');
    const before = pages(db);
    expect(repackPostings(db, 1024)).toBe(false);
    expect(pages(db)).toBe(before);
    await index.close();
    db.close();
  }, 30_000);
});
