import { join } from 'node:path';
import { DocumentWriter } from '../../src/infrastructure/search/sqlite/document-writer';
import { rowBytes } from '../../src/infrastructure/search/sqlite/row-cache';
import { SqliteSearchIndex } from '../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';
import { cutSlots } from '../support/search-slots';
import { makeTempDir } from '../support/temp-dir';
import { describeSearchIndexContract } from './search-index.contract';

describeSearchIndexContract('SQLite (embedded BM25)', async () => {
  const temp = makeTempDir('cairn-search-');
  const db = openSqlite({ path: join(temp.dir, 'cairn.sqlite') });
  const index = new SqliteSearchIndex(db);
  return {
    index,
    cleanup: async () => {
      await index.close();
      db.close();
      temp.cleanup();
    },
  };
});

describe('SQLite search index: posting lists cached in memory', () => {
  const temp = makeTempDir('cairn-search-cache-');
  const path = join(temp.dir, 'cairn.sqlite');
  // Two connections to one file, as a server and a CLI process have.
  const serverDb = openSqlite({ path });
  const cliDb = openSqlite({ path });
  const server = new SqliteSearchIndex(serverDb);
  const cli = new SqliteSearchIndex(cliDb);
  afterAll(async () => {
    await server.close();
    await cli.close();
    serverDb.close();
    cliDb.close();
    temp.cleanup();
  });

  const doc = (id: string, body: string, version = 1) => ({
    id,
    organization_id: 'org-1',
    title: id,
    body,
    fields: {},
    version,
  });
  const ids = async (index: SqliteSearchIndex, text: string) =>
    (await index.search({ organization_id: 'org-1', text, limit: 10 })).map((hit) => hit.id);

  it('sees postings written by another connection after it cached the term (add, change, delete)', async () => {
    await cli.upsert([doc('a', 'glacier moraine cairn'), doc('b', 'river delta')]);
    expect(await ids(server, 'glacier')).toEqual(['a']); // cached now
    expect(await ids(server, 'glacier')).toEqual(['a']);

    await cli.upsert([doc('c', 'glacier ice field')]);
    expect((await ids(server, 'glacier')).sort()).toEqual(['a', 'c']);

    await cli.upsert([doc('a', 'no longer about ice rivers', 2)]);
    expect(await ids(server, 'glacier')).toEqual(['c']);
    expect(await ids(server, 'moraine')).toEqual([]);

    await cli.delete([{ id: 'c', version: 2 }]);
    expect(await ids(server, 'glacier')).toEqual([]);
  });

  it('sees a change of fields alone (same text) written by another connection after it cached the row', async () => {
    const audience = async (value: string) =>
      (
        await server.search({
          organization_id: 'org-1',
          text: 'tundra',
          limit: 10,
          filters: { audience: value },
        })
      ).map((hit) => hit.id);
    await cli.upsert([{ ...doc('f', 'tundra lichen'), fields: { audience: 'internal' } }]);
    expect(await audience('internal')).toEqual(['f']); // row and postings cached now
    await cli.upsert([{ ...doc('f', 'tundra lichen', 2), fields: { audience: 'customer_safe' } }]);
    expect(await audience('internal')).toEqual([]);
    expect(await audience('customer_safe')).toEqual(['f']);
  });

  it('sees a reset by another connection (the rebuilt index starts empty)', async () => {
    await cli.upsert([doc('d', 'basalt column')]);
    expect(await ids(server, 'basalt')).toEqual(['d']);
    await cli.reset();
    expect(await ids(server, 'basalt')).toEqual([]);
    await cli.upsert([doc('e', 'basalt plateau')]);
    expect(await ids(server, 'basalt')).toEqual(['e']);
  });
});

describe('SQLite search index: looked-up rows cached in memory, bounded', () => {
  const temp = makeTempDir('cairn-search-rows-');
  const db = openSqlite({ path: join(temp.dir, 'cairn.sqlite') });
  // A bound far below one query's matches (about three of its rows): the cache starts over several times within
  // one lookup.
  const rowCacheBytes =
    3 * rowBytes({ id: 'row-10', title: 'Invoice 10', fields: { audience: 'customer_safe' } });
  const index = new SqliteSearchIndex(db, { rowCacheBytes });
  afterAll(async () => {
    await index.close();
    db.close();
    temp.cleanup();
  });

  it('never loses a match when the cache starts over during a lookup', async () => {
    await index.upsert(
      Array.from({ length: 12 }, (_, n) => ({
        id: `row-${n}`,
        organization_id: 'org-rows',
        title: `Invoice ${n}`,
        body: `Invoice ${'paid '.repeat(n + 1)}`,
        fields: { audience: n % 2 === 0 ? 'customer_safe' : 'internal' },
        version: 1,
      })),
    );
    const search = async (filters = {}) =>
      (await index.search({ organization_id: 'org-rows', text: 'invoice paid', limit: 10, filters }))
        .map((hit) => hit.id)
        .sort();
    const all = Array.from({ length: 12 }, (_, n) => `row-${n}`);
    for (let round = 0; round < 3; round++) {
      expect(await search()).toHaveLength(10);
      expect(await search({ audience: 'customer_safe' })).toEqual(all.filter((_, n) => n % 2 === 0).sort());
    }
  });
});

describe('SQLite search index: an index of an earlier layout', () => {
  const temp = makeTempDir('cairn-search-layout-');
  const path = join(temp.dir, 'cairn.sqlite');
  afterAll(() => temp.cleanup());

  it('is reindexed when opened: documents kept, every generation a digest of its rows, searches answer', async () => {
    const db = openSqlite({ path });
    const index = new SqliteSearchIndex(db);
    const doc = (id: string, organization: string, body: string) => ({
      id,
      organization_id: organization,
      title: id,
      body,
      fields: { n: id },
      version: 1,
    });
    await index.upsert([
      doc('a', 'org-a', 'scree slope'),
      doc('b', 'org-b', 'scree field'),
      doc('c', 'org-a', 'talus'),
    ]);
    const generations = () =>
      db.prepare('SELECT organization_id, generation FROM search_index_organizations ORDER BY org_key').all();
    const current = generations();
    // As layout 3 left it: a random generation, no row hashes.
    db.exec(`UPDATE search_index_meta SET value = '3.1' WHERE key = 'version';
      UPDATE search_index_organizations SET generation = 'q1w2e3r4t5y6u7i8o9p0';
      UPDATE search_index_documents SET row_hash = NULL`);
    await index.close();
    const reopened = new SqliteSearchIndex(db);
    expect(generations()).toEqual(current);
    expect((await reopened.search({ organization_id: 'org-a', text: 'scree' })).map((hit) => hit.id)).toEqual(
      ['a'],
    );
    await reopened.delete([{ id: 'a', version: 2 }]);
    expect(await reopened.search({ organization_id: 'org-a', text: 'scree' })).toEqual([]);
    await reopened.close();
    db.close();
  });
  it('re-indexes layout 6 (slots without collapse values) and a file of another collapse field when opened', async () => {
    const db = openSqlite({ path: join(temp.dir, 'layout6.sqlite') });
    const index = new SqliteSearchIndex(db);
    const doc = (id: string, item: number, body: string) => ({
      id,
      organization_id: 'org',
      title: id,
      body,
      fields: { memory_item_id: item },
      version: 1,
    });
    await index.upsert([doc('p1', 7, 'cirque tarn'), doc('p2', 7, 'tarn col tarn'), doc('q1', 8, 'tarn')]);
    await index.close();
    const collapsed = async (reopened: SqliteSearchIndex) =>
      (
        await reopened.search({
          organization_id: 'org',
          text: 'tarn',
          collapse: { field: 'memory_item_id', max_members: 5 },
        })
      ).map((hit) => [hit.id, hit.members?.map((member) => member.id)]);
    const expected = await collapsed(new SqliteSearchIndex(db));
    expect(expected).toEqual([
      ['p2', ['p2', 'p1']],
      ['q1', ['q1']],
    ]);
    // As layout 6 left it: 6-byte slots (title and body lengths only), no collapse field or index.
    cutSlots(db, 6);
    db.exec(`DROP INDEX search_index_documents_collapse; DELETE FROM search_index_meta WHERE key = 'collapse_field';
      UPDATE search_index_meta SET value = '6.1' WHERE key = 'version'`);
    const reindex = jest.spyOn(DocumentWriter.prototype, 'reindexAll');
    expect(await collapsed(new SqliteSearchIndex(db))).toEqual(expected);
    expect(reindex).toHaveBeenCalledTimes(1);
    expect(db.prepare(`SELECT value FROM search_index_meta WHERE key = 'version'`).pluck().get()).toBe(
      '12.1',
    );
    // Opened with the same field: nothing indexed again. With another (or none): indexed again, collapse refused.
    new SqliteSearchIndex(db);
    expect(reindex).toHaveBeenCalledTimes(1);
    const other = new SqliteSearchIndex(db, { collapseField: 'memory_source_id' });
    expect(reindex).toHaveBeenCalledTimes(2);
    await expect(collapsed(other)).rejects.toThrow(/keeps the values of memory_source_id only/);
    expect(await collapsed(new SqliteSearchIndex(db))).toEqual(expected);
    expect(reindex).toHaveBeenCalledTimes(3);
    reindex.mockRestore();
    db.close();
  });

  it('re-indexes layout 11 (postings keyed by term before partition group) when opened', async () => {
    const db = openSqlite({ path: join(temp.dir, 'layout11.sqlite') });
    const index = new SqliteSearchIndex(db);
    await index.upsert([
      { id: 'x', organization_id: 'org', title: 'x', body: 'scree couloir', fields: {}, version: 1 },
      {
        id: 'y',
        organization_id: 'org',
        title: 'y',
        body: 'couloir couloir bergschrund',
        fields: {},
        version: 1,
      },
    ]);
    await index.close();
    const expected = await new SqliteSearchIndex(db).search({ organization_id: 'org', text: 'couloir' });
    // As layout 11 left it: rows keyed (organization, term, partition), without a group.
    db.exec(`DROP TABLE search_index_postings;
      CREATE TABLE search_index_postings (org_key INTEGER NOT NULL, term TEXT NOT NULL, part INTEGER NOT NULL,
        data BLOB NOT NULL, PRIMARY KEY (org_key, term, part)) WITHOUT ROWID;
      UPDATE search_index_meta SET value = '11.1' WHERE key = 'version'`);
    const reindex = jest.spyOn(DocumentWriter.prototype, 'reindexAll');
    const reopened = new SqliteSearchIndex(db);
    expect(reindex).toHaveBeenCalledTimes(1);
    reindex.mockRestore();
    const hits = await reopened.search({ organization_id: 'org', text: 'couloir' });
    expect(hits.map((hit) => [hit.id, hit.score])).toEqual(expected.map((hit) => [hit.id, hit.score]));
    const columns = db.prepare(`SELECT name FROM pragma_table_info('search_index_postings')`).pluck().all();
    expect(columns).toEqual(['org_key', 'grp', 'term', 'part', 'data']);
    await reopened.close();
    db.close();
  });

  it('finds, ranks, changes and removes documents across partition groups', async () => {
    const db = openSqlite({ path: join(temp.dir, 'groups.sqlite') });
    const index = new SqliteSearchIndex(db);
    // 70,000 documents: numbers 0..65,535 fill group 0 (16 partitions of 4,096), the rest start group 1.
    const doc = (n: number, body: string, version = 1) => ({
      id: `d${n}`,
      organization_id: 'org',
      title: `t${n % 7}`,
      body,
      fields: {},
      version,
    });
    const docs = Array.from({ length: 70_000 }, (_, n) =>
      doc(n, n === 3 ? 'serac serac' : n === 68_000 ? 'serac' : n === 69_999 ? 'serac icefall' : 'firn'),
    );
    await index.upsert(docs);
    const ids = async (text: string) =>
      (await index.search({ organization_id: 'org', text, limit: 10 })).map((hit) => hit.id);
    expect(await ids('serac')).toEqual(['d3', 'd68000', 'd69999']);
    const groups = db
      .prepare(`SELECT DISTINCT grp FROM search_index_postings WHERE term = 'serac' ORDER BY grp`)
      .pluck()
      .all();
    expect(groups).toEqual([0, 1]);
    // A change in group 1 replaces that document's postings there; a removal in group 0 removes them there.
    await index.upsert([doc(68_000, 'serac serac serac', 2)]);
    expect(await ids('serac')).toEqual(['d68000', 'd3', 'd69999']);
    await index.delete([{ id: 'd3', version: 2 }]);
    expect(await ids('serac')).toEqual(['d68000', 'd69999']);
    expect(await ids('icefall')).toEqual(['d69999']);
    await index.close();
    // A fresh index (no cache) reads the same from the file.
    const reopened = new SqliteSearchIndex(db);
    expect((await reopened.search({ organization_id: 'org', text: 'serac' })).map((hit) => hit.id)).toEqual([
      'd68000',
      'd69999',
    ]);
    await reopened.close();
    db.close();
  }, 60_000);

  it('re-indexes layout 4 (postings by hash bucket) into postings keyed by term when opened', async () => {
    const db = openSqlite({ path: join(temp.dir, 'layout4.sqlite') });
    const index = new SqliteSearchIndex(db);
    await index.upsert([
      { id: 'x', organization_id: 'org', title: 'x', body: 'moraine ridge', fields: {}, version: 1 },
      {
        id: 'y',
        organization_id: 'org',
        title: 'y',
        body: 'glacial moraine moraine',
        fields: {},
        version: 1,
      },
    ]);
    await index.close();
    // As layout 4 left it: bucket rows of 14-byte postings, no lengths table.
    db.exec(`DROP TABLE search_index_postings; DROP TABLE search_index_lengths;
      CREATE TABLE search_index_postings (row INTEGER PRIMARY KEY, org_key INTEGER NOT NULL, part INTEGER NOT NULL,
        bucket INTEGER NOT NULL, data BLOB NOT NULL);
      INSERT INTO search_index_postings VALUES (1, 1, 0, 7, x'00000000');
      UPDATE search_index_meta SET value = '4.1' WHERE key = 'version'`);
    const reopened = new SqliteSearchIndex(db);
    const hits = await reopened.search({ organization_id: 'org', text: 'moraine' });
    expect(hits.map((hit) => hit.id)).toEqual(['y', 'x']);
    const terms = db.prepare('SELECT DISTINCT term FROM search_index_postings ORDER BY term').all();
    expect(terms).toEqual([
      { term: 'glacial' },
      { term: 'morain' },
      { term: 'ridg' },
      { term: 'x' },
      { term: 'y' },
    ]);
    await reopened.close();
    db.close();
  });
});
