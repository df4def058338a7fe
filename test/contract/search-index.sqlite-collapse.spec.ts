/** The embedded index's collapsed searches beyond the contract: how often it ranks and reads an item's chunks. */
import { join } from 'node:path';
import { MaxScoreRanker } from '../../src/infrastructure/search/sqlite/max-score';
import { SqliteSearchIndex } from '../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';
import { makeTempDir } from '../support/temp-dir';

describe('SQLite search index: collapsed searches past filtered items', () => {
  it('leaves out every failing chunk of a failing item at once: a few rankings, not one per chunk', async () => {
    const temp = makeTempDir('cairn-search-collapse-');
    const db = openSqlite({ path: join(temp.dir, 'cairn.sqlite') });
    const index = new SqliteSearchIndex(db);
    // 40 hidden items of 12 chunks each rank above the 5 visible ones.
    const chunk = (id: string, item: number, body: string, hidden: boolean) => ({
      id,
      organization_id: 'org',
      title: 'notes',
      body,
      fields: { memory_item_id: item, hidden },
      version: 1,
    });
    await index.upsert([
      ...Array.from({ length: 40 * 12 }, (_, i) =>
        chunk(`h${i}`, Math.floor(i / 12), 'serac serac serac', true),
      ),
      ...Array.from({ length: 5 }, (_, i) => chunk(`v${i}`, 1000 + i, 'serac and more words', false)),
    ]);
    const rankings = jest.spyOn(MaxScoreRanker.prototype, 'top');
    const hits = await index.search({
      organization_id: 'org',
      text: 'serac',
      limit: 5,
      filters: { hidden: false },
      collapse: { field: 'memory_item_id', max_members: 10 },
    });
    expect(hits.map((hit) => hit.id).sort()).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
    // 5, 20, 80 and 320 items asked for, each round leaving out whole items (5, then 20, then the last 15); one
    // chunk at a time it took 15 rankings.
    expect(rankings).toHaveBeenCalledTimes(4);
    rankings.mockRestore();
    await index.close();
    db.close();
    temp.cleanup();
  });
});

describe('SQLite search index: an item’s chunks kept between collapsed searches', () => {
  it('reads them once per generation, and again after any write', async () => {
    const temp = makeTempDir('cairn-search-members-');
    const db = openSqlite({ path: join(temp.dir, 'cairn.sqlite') });
    const index = new SqliteSearchIndex(db);
    const chunk = (id: string, item: number, body: string, version = 1) => ({
      id,
      organization_id: 'org',
      title: 'notes',
      body,
      fields: { memory_item_id: item },
      version,
    });
    const collapsed = async () =>
      (
        await index.search({
          organization_id: 'org',
          text: 'serac',
          collapse: { field: 'memory_item_id', max_members: 10 },
        })
      ).map((hit) => (hit.members ?? []).map((member) => member.id));
    // Every statement shares one prototype: count the runs of the one that reads collapse values' documents.
    const statements = Object.getPrototypeOf(db.prepare('SELECT 1')) as {
      all: (...args: unknown[]) => unknown[];
    };
    const runs = jest.spyOn(statements, 'all');
    const memberReads = () =>
      runs.mock.contexts.filter((statement) =>
        (statement as { source: string }).source.includes(' AS value '),
      ).length;
    await index.upsert([
      chunk('a1', 1, 'serac serac'),
      chunk('a2', 1, 'serac'),
      chunk('b1', 2, 'serac field'),
    ]);
    expect(await collapsed()).toEqual([['a1', 'a2'], ['b1']]);
    expect(memberReads()).toBe(1);
    expect(await collapsed()).toEqual([['a1', 'a2'], ['b1']]);
    expect(memberReads()).toBe(1);
    // A new chunk of item 2 and one of item 1 gone: the next search reads the items again and lists them as now.
    await index.upsert([chunk('b2', 2, 'serac serac serac')]);
    await index.delete([{ id: 'a2', version: 2 }]);
    expect(await collapsed()).toEqual([['b2', 'b1'], ['a1']]);
    expect(memberReads()).toBe(2);
    // One member each: the hit's own chunk, nothing else of its item read (a new generation, so none cached).
    await index.upsert([chunk('c1', 3, 'serac')]);
    const one = await index.search({
      organization_id: 'org',
      text: 'serac',
      collapse: { field: 'memory_item_id', max_members: 1 },
    });
    expect(one.map((hit) => (hit.members ?? []).map((member) => [member.id, member.score]))).toEqual(
      one.map((hit) => [[hit.id, hit.score]]),
    );
    expect(one.map((hit) => hit.id)).toEqual(['b2', 'a1', 'c1']);
    expect(memberReads()).toBe(2);
    runs.mockRestore();
    await index.close();
    db.close();
    temp.cleanup();
  });
});
