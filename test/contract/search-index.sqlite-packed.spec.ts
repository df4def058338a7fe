import { join } from 'node:path';
import { SqliteSearchIndex } from '../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';
import { makeTempDir } from '../support/temp-dir';

describe('SQLite search index: bodies stored packed (body-codec.ts)', () => {
  const temp = makeTempDir('cairn-search-packed-');
  afterAll(() => temp.cleanup());

  it('stores bodies packed, and packs the text bodies of layout 7 when opened (updates and highlights as before)', async () => {
    const db = openSqlite({ path: join(temp.dir, 'layout7.sqlite') });
    const index = new SqliteSearchIndex(db);
    // Several sections of prose, as a memory item's chunks are: long enough for DEFLATE to matter.
    const section = (n: number, word: string) =>
      `Section ${n}. The ${word} beside the col holds meltwater until late summer; ` +
      `walkers cross the ${word} on the northern path, where the scree gives way to turf. `.repeat(6);
    const doc = (id: string, body: string, version = 1) => ({
      id,
      organization_id: 'org',
      title: `Guide ${id}`,
      body,
      fields: { memory_item_id: 1 },
      version,
    });
    const bodies = { s1: section(1, 'tarn'), s2: section(2, 'lochan'), s3: section(3, 'corrie') };
    await index.upsert(Object.entries(bodies).map(([id, body]) => doc(id, body)));
    const stored = () =>
      db
        .prepare(
          `SELECT id, typeof(body) AS type, length(body) AS bytes FROM search_index_documents ORDER BY id`,
        )
        .all() as Array<{ id: string; type: string; bytes: number }>;
    for (const row of stored()) {
      expect(row.type).toBe('blob');
      expect(row.bytes).toBeLessThan(Buffer.byteLength(bodies[row.id as keyof typeof bodies]) / 3);
    }
    const answers = async (reading: SqliteSearchIndex) => ({
      hits: (await reading.search({ organization_id: 'org', text: 'lochan' })).map((hit) => [
        hit.id,
        hit.highlights,
      ]),
      got: await reading.get('s3'),
      dumped: await (async () => {
        const all = [];
        for await (const each of reading.dump()) all.push(each);
        return all;
      })(),
    });
    const before = await answers(index);
    expect(before.hits.map(([id]) => id)).toEqual(['s2']);
    expect((before.hits[0][1] as string[])[0]).toMatch(
      /^Section 2\. The «lochan» beside the col holds meltwater/,
    );
    expect(before.got?.body).toBe(bodies.s3);
    expect(before.dumped.map((each) => each.body)).toEqual([bodies.s1, bodies.s2, bodies.s3]);
    await index.close();

    // As layout 7 left it: every body as text.
    const unpacked = new SqliteSearchIndex(db);
    for (const each of before.dumped) {
      db.prepare('UPDATE search_index_documents SET body = ? WHERE id = ?').run(each.body, each.id);
    }
    await unpacked.close();
    db.exec(`UPDATE search_index_meta SET value = '7.1' WHERE key = 'version'`);
    expect(stored().map((row) => row.type)).toEqual(['text', 'text', 'text']);
    const reopened = new SqliteSearchIndex(db);
    expect(stored().map((row) => row.type)).toEqual(['blob', 'blob', 'blob']);
    expect(await answers(reopened)).toEqual(before);
    // A changed document's old postings come from its stored (packed) text: the old word no longer finds it.
    await reopened.upsert([doc('s2', section(2, 'tarn'), 2)]);
    expect(await reopened.search({ organization_id: 'org', text: 'lochan' })).toEqual([]);
    expect(
      (await reopened.search({ organization_id: 'org', text: 'tarn' })).map((hit) => hit.id).sort(),
    ).toEqual(['s1', 's2']);
    await reopened.delete([{ id: 's1', version: 2 }]);
    expect((await reopened.search({ organization_id: 'org', text: 'tarn' })).map((hit) => hit.id)).toEqual([
      's2',
    ]);
    await reopened.close();
    db.close();
  });
});
