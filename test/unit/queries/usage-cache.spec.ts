import { SqliteReadStore } from '../../../src/infrastructure/read-store/sqlite/sqlite-read-store';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { MEMORY_USAGE, memoryUsageProjection } from '../../../src/projections/memory-usage.projection';
import { UsageCache } from '../../../src/queries/memory/usage-cache';

describe('UsageCache (usage counts kept while the memory-usage checkpoint stands still)', () => {
  let db: SqliteDatabase;
  let store: SqliteReadStore;
  const projection = memoryUsageProjection.name;
  const version = { version: memoryUsageProjection.version };

  /** Writes usage counts the way the projection runner does: with a move of the checkpoint. */
  async function report(from: number, to: number, item: number, used: number): Promise<void> {
    const doc = {
      id: String(item),
      memory_item_id: item,
      organization_id: 1,
      used_count: used,
      ignored_count: 0,
    };
    expect(
      await store.commit(projection, from, { position: to, ...version }, [
        { op: 'put', collection: MEMORY_USAGE, doc },
      ]),
    ).toBe(true);
  }

  beforeEach(async () => {
    db = openSqlite({ path: ':memory:' });
    store = new SqliteReadStore(db);
    await store.ensureCollection(MEMORY_USAGE, ['organization_id']);
  });

  afterEach(async () => {
    await store.close();
    db.close();
  });

  it('reads each item once while the checkpoint stands still, absences included', async () => {
    await report(0, 5, 10, 3);
    const cache = new UsageCache(store);
    const reads = jest.spyOn(store, 'getMany');
    expect(await cache.counts(1, [10, 11])).toEqual(
      new Map([
        [10, { used_count: 3, ignored_count: 0 }],
        [11, null],
      ]),
    );
    expect(await cache.counts(1, [11, 10])).toEqual(
      new Map([
        [11, null],
        [10, { used_count: 3, ignored_count: 0 }],
      ]),
    );
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('sees a report committed by anyone as soon as the checkpoint has moved (a new count, a first count)', async () => {
    await report(0, 5, 10, 3);
    const cache = new UsageCache(store);
    await cache.counts(1, [10, 11]);
    await report(5, 9, 11, 1);
    await report(9, 12, 10, 4);
    expect(await cache.counts(1, [10, 11])).toEqual(
      new Map([
        [10, { used_count: 4, ignored_count: 0 }],
        [11, { used_count: 1, ignored_count: 0 }],
      ]),
    );
  });

  it('starts over after a rebuild drops the read model and its checkpoint', async () => {
    await report(0, 5, 10, 3);
    const cache = new UsageCache(store);
    await cache.counts(1, [10]);
    await store.reset(projection, [MEMORY_USAGE]);
    expect(await cache.counts(1, [10])).toEqual(new Map([[10, null]]));
  });
});
