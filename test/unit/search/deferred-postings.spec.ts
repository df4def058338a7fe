import { join } from 'node:path';
import fc from 'fast-check';
import type { SearchDocument, SearchWrite } from '../../../src/infrastructure/search/search-index.port';
import { FLUSH_DOCUMENTS } from '../../../src/infrastructure/search/sqlite/document-writer';
import { PARTITION_SIZE } from '../../../src/infrastructure/search/sqlite/postings';
import { SqliteSearchIndex } from '../../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { storedDigest } from '../../support/search-digest';
import { makeTempDir } from '../../support/temp-dir';

/**
 * Deferred postings (SearchWriteOptions.defer_visibility, document-writer.ts): new documents' postings kept in
 * the writer's memory until a partition fills, refresh(), another write, or close — and what is stored in the
 * end is byte for byte what immediate writes store, whoever stores it (this writer, a repair after a process
 * stopped, or another writer).
 */
const WORDS =
  'glacier moraine cairn river delta basalt tundra fjord summit ridge valley scree cirque col tarn'.split(
    ' ',
  );

/** A chunk-like document: a few sentences from a small vocabulary, one rare word naming it. */
function doc(n: number, version = 1, org = 'org-1'): SearchDocument {
  const words = Array.from({ length: 40 }, (_, i) => WORDS[(n * 7 + i * ((n % 5) + 1)) % WORDS.length]);
  return {
    id: `chunk-${n}`,
    organization_id: org,
    title: `Section ${n % 9} of document ${Math.floor(n / 8)}`,
    body: `${words.join(' ')} marker${n}x${version}.`,
    fields: { memory_item_id: Math.floor(n / 8), ordinal: n % 8 },
    version,
  };
}
const upserts = (docs: SearchDocument[]): SearchWrite[] =>
  docs.map((document) => ({ kind: 'upsert', document }));

describe('SQLite search index: deferred postings', () => {
  const temp = makeTempDir('cairn-deferred-');
  afterAll(() => temp.cleanup());
  let n = 0;
  const open = () => {
    const path = join(temp.dir, `case-${++n}.sqlite`);
    const dbs: SqliteDatabase[] = [];
    const indexes: SqliteSearchIndex[] = [];
    const connect = () => {
      const db = openSqlite({ path });
      const index = new SqliteSearchIndex(db);
      dbs.push(db);
      indexes.push(index);
      return { db, index };
    };
    const closeAll = async () => {
      for (const index of indexes) await index.close();
      for (const db of dbs) if (db.open) db.close();
    };
    return { connect, closeAll };
  };
  const ids = async (index: SqliteSearchIndex, text: string, org = 'org-1') =>
    (await index.search({ organization_id: org, text, limit: 50 })).map((hit) => hit.id).sort();

  /** What immediate writes of the same documents store. */
  async function immediateDigest(batches: SearchWrite[][]): Promise<string> {
    const { connect, closeAll } = open();
    const { db, index } = connect();
    for (const batch of batches) await index.write(batch);
    const digest = storedDigest(db);
    await closeAll();
    return digest;
  }

  it('a deferred batch is searchable after refresh(), not before; another connection sees it then too', async () => {
    const { connect, closeAll } = open();
    const writer = connect();
    const reader = connect();
    await writer.index.write(upserts([doc(1), doc(2), doc(3)]));
    expect(await ids(reader.index, 'marker2x1')).toEqual(['chunk-2']);
    await writer.index.write(upserts([doc(4), doc(5)]), { defer_visibility: true });
    expect(await ids(reader.index, 'marker4x1')).toEqual([]);
    expect(await writer.index.count('org-1')).toBe(5);
    await writer.index.refresh();
    expect(await ids(reader.index, 'marker4x1')).toEqual(['chunk-4']);
    expect(await ids(writer.index, 'marker5x1')).toEqual(['chunk-5']);
    // The reader had cached the term before the postings were stored: its cache moved with posted_doc_no.
    await writer.index.write(upserts([doc(6)]), { defer_visibility: true });
    expect(await ids(reader.index, 'glacier')).not.toContain('chunk-6');
    await writer.index.refresh();
    expect(await ids(reader.index, 'marker6x1')).toEqual(['chunk-6']);
    expect(await ids(reader.index, 'glacier')).toContain('chunk-6');
    await closeAll();
  });

  it('stores what immediate writes store, across partitions, whatever the cuts and deferrals', async () => {
    const total = PARTITION_SIZE * 2 + 300;
    const docs = Array.from({ length: total }, (_, i) => doc(i));
    // Ends with a revision and a delete: non-append writes flush what is deferred first.
    const tail: SearchWrite[] = [
      { kind: 'upsert', document: doc(17, 2) },
      { kind: 'delete', id: 'chunk-40', version: 2 },
    ];
    const expected = await immediateDigest([upserts(docs), tail]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: total }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        async (cuts, deferred) => {
          const { connect, closeAll } = open();
          const { db, index } = connect();
          const bounds = [...new Set([0, ...cuts, total])].sort((a, b) => a - b);
          for (let i = 0; i + 1 < bounds.length; i++) {
            const batch = upserts(docs.slice(bounds[i], bounds[i + 1]));
            await index.write(batch, { defer_visibility: deferred[i % deferred.length] });
          }
          await index.write(tail, { defer_visibility: true });
          await index.refresh();
          expect(storedDigest(db)).toBe(expected);
          await closeAll();
        },
      ),
      { numRuns: 8 },
    );
  });

  it('stores full partitions once FLUSH_DOCUMENTS are deferred, and keeps the partly filled one', async () => {
    const { connect, closeAll } = open();
    const { db, index } = connect();
    const posted = () =>
      db.prepare('SELECT posted_doc_no FROM search_index_organizations').pluck().get() as number;
    const count = FLUSH_DOCUMENTS + 100;
    await index.write(upserts(Array.from({ length: count }, (_, i) => doc(i))), { defer_visibility: true });
    expect(posted()).toBe(Math.floor(count / PARTITION_SIZE) * PARTITION_SIZE);
    expect(await ids(index, 'marker5x1')).toEqual(['chunk-5']);
    expect(await ids(index, `marker${count - 1}x1`)).toEqual([]);
    await index.refresh();
    expect(posted()).toBe(count);
    expect(await ids(index, `marker${count - 1}x1`)).toEqual([`chunk-${count - 1}`]);
    await closeAll();
  });

  it('a process that stopped without storing its deferred postings: the next one to open the index repairs them', async () => {
    const docs = Array.from({ length: 500 }, (_, i) => doc(i));
    const expected = await immediateDigest([upserts(docs.slice(0, 200)), upserts(docs.slice(200))]);
    const { connect, closeAll } = open();
    const first = connect();
    await first.index.write(upserts(docs.slice(0, 200)));
    await first.index.write(upserts(docs.slice(200)), { defer_visibility: true });
    // The process stops: its connection closes without refresh() or close() of the index.
    first.db.close();
    const next = connect();
    expect(await ids(next.index, 'marker450x1')).toEqual(['chunk-450']);
    expect(storedDigest(next.db)).toBe(expected);
    await closeAll();
  });

  it('another writer repairs what this one deferred; this one then stores nothing twice and loses nothing', async () => {
    const docs = Array.from({ length: 300 }, (_, i) => doc(i));
    const more = [doc(300), doc(301)];
    const expected = await immediateDigest([upserts(docs), upserts(more)]);
    const { connect, closeAll } = open();
    const a = connect();
    const b = connect();
    await a.index.write(upserts(docs), { defer_visibility: true });
    // b (a new lease holder) writes: it finds documents without stored postings that it does not hold.
    await b.index.write(upserts(more));
    expect(await ids(b.index, 'marker250x1')).toEqual(['chunk-250']);
    expect(storedDigest(b.db)).toBe(expected);
    // b revises a document a still holds deferred postings of: a's stale postings must not come back.
    await b.index.write(upserts([doc(12, 2)]));
    await a.index.refresh();
    expect(await ids(a.index, 'marker12x1')).toEqual([]);
    expect(await ids(a.index, 'marker12x2')).toEqual(['chunk-12']);
    const final = await immediateDigest([upserts(docs), upserts(more), upserts([doc(12, 2)])]);
    expect(storedDigest(a.db)).toBe(final);
    await closeAll();
  });

  it('a reset forgets deferred postings', async () => {
    const { connect, closeAll } = open();
    const { db, index } = connect();
    await index.write(upserts([doc(1), doc(2)]), { defer_visibility: true });
    await index.reset();
    await index.write(upserts([doc(3)]), { defer_visibility: true });
    await index.refresh();
    expect(await ids(index, 'glacier')).toEqual(['chunk-3']);
    expect(db.prepare('SELECT count(*) FROM search_index_documents').pluck().get()).toBe(1);
    expect(storedDigest(db)).toBe(await immediateDigest([upserts([doc(3)])]));
    await closeAll();
  });

  it('close() stores what is deferred', async () => {
    const { connect, closeAll } = open();
    const first = connect();
    await first.index.write(upserts([doc(1), doc(2)]), { defer_visibility: true });
    await first.index.close();
    const posted = first.db.prepare('SELECT posted_doc_no FROM search_index_organizations').pluck().get();
    expect(posted).toBe(2);
    await closeAll();
  });
});
