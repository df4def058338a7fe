import type { RecordedEvent } from '../../../src/infrastructure/event-store/event-store.port';
import { SqliteReadStore } from '../../../src/infrastructure/read-store/sqlite/sqlite-read-store';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { BufferedProjectionContext } from '../../../src/projections/buffered-projection-context';
import {
  MEMORY_USAGE,
  MEMORY_USAGE_REVISIONS,
  memoryUsageProjection,
} from '../../../src/projections/memory-usage.projection';
import { UsageCache } from '../../../src/queries/memory/usage-cache';

describe('UsageCache (usage counts kept per organization while its usage revision stands still)', () => {
  let db: SqliteDatabase;
  let store: SqliteReadStore;
  let checkpoint = 0;
  const projection = memoryUsageProjection;
  const collections = new Set(projection.collections.map((collection) => collection.name));

  /**
   * Commits a batch the way the projection runner does: the projection's writes for `events` (none for a batch of
   * other events) with the move of its checkpoint to `to`.
   */
  async function commit(to: number, events: RecordedEvent[] = []): Promise<void> {
    const context = new BufferedProjectionContext(store, collections);
    for (const event of events) await projection.apply(event, context);
    const next = { position: to, version: projection.version };
    expect(await store.commit(projection.name, checkpoint, next, context.ops)).toBe(true);
    checkpoint = to;
  }

  /** A usage report at `position`: `used` item ids used (replacing `previous` of an earlier report). */
  function report(
    position: number,
    organization: number,
    used: number[],
    previous: number[] = [],
  ): RecordedEvent {
    return {
      event_id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
      stream: `recall-trace-${position}`,
      revision: 1,
      position,
      type: 'RecallUsageReported',
      data: {
        trace_id: position,
        organization_id: organization,
        used_item_ids: used,
        ignored_item_ids: [],
        previous_used_item_ids: previous,
        previous_ignored_item_ids: [],
      },
      metadata: {
        organization_id: String(organization),
        correlation_id: 'c',
        causation_id: null,
        actor: 'connector:1',
        occurred_at: '2026-11-21T00:00:00.000Z',
        schema_version: 1,
        prev_hash: '0'.repeat(64),
        hash: '0'.repeat(64),
      },
    };
  }

  beforeEach(async () => {
    checkpoint = 0;
    db = openSqlite({ path: ':memory:' });
    store = new SqliteReadStore(db);
    for (const collection of projection.collections) {
      await store.ensureCollection(collection.name, collection.indexes);
    }
  });

  afterEach(async () => {
    await store.close();
    db.close();
  });

  it('reads each item once while the revision stands still, absences included', async () => {
    await commit(5, [report(5, 1, [10])]);
    const cache = new UsageCache(store);
    const reads = jest.spyOn(store, 'getMany');
    expect(await cache.counts(1, [10, 11])).toEqual(
      new Map([
        [10, { used_count: 1, ignored_count: 0 }],
        [11, null],
      ]),
    );
    expect(await cache.counts(1, [11, 10])).toEqual(
      new Map([
        [11, null],
        [10, { used_count: 1, ignored_count: 0 }],
      ]),
    );
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('keeps its counts while only the checkpoint moves (other events, such as every search’s recall trace)', async () => {
    await commit(5, [report(5, 1, [10])]);
    const cache = new UsageCache(store);
    await cache.counts(1, [10, 11]);
    const reads = jest.spyOn(store, 'getMany');
    await commit(9);
    await commit(40);
    expect(await cache.counts(1, [10, 11])).toEqual(
      new Map([
        [10, { used_count: 1, ignored_count: 0 }],
        [11, null],
      ]),
    );
    expect(reads).not.toHaveBeenCalled();
  });

  it('sees a report committed by anyone at once (a changed count, a first count)', async () => {
    await commit(5, [report(5, 1, [10])]);
    const cache = new UsageCache(store);
    await cache.counts(1, [10, 11]);
    // The same trace reported again: item 10 no longer used, item 11 used.
    await commit(9, [report(9, 1, [11], [10])]);
    expect(await cache.counts(1, [10, 11])).toEqual(
      new Map([
        [10, { used_count: 0, ignored_count: 0 }],
        [11, { used_count: 1, ignored_count: 0 }],
      ]),
    );
  });

  it("keeps one organization's counts when another organization's usage changes", async () => {
    await commit(5, [report(5, 1, [10]), report(6, 2, [20])]);
    const cache = new UsageCache(store);
    await cache.counts(1, [10]);
    await cache.counts(2, [20]);
    const reads = jest.spyOn(store, 'getMany');
    await commit(9, [report(9, 2, [21])]);
    expect(await cache.counts(1, [10])).toEqual(new Map([[10, { used_count: 1, ignored_count: 0 }]]));
    expect(reads).not.toHaveBeenCalled();
    expect(await cache.counts(2, [20, 21])).toEqual(
      new Map([
        [20, { used_count: 1, ignored_count: 0 }],
        [21, { used_count: 1, ignored_count: 0 }],
      ]),
    );
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('starts over after a rebuild drops the read models', async () => {
    await commit(5, [report(5, 1, [10])]);
    const cache = new UsageCache(store);
    await cache.counts(1, [10]);
    await store.reset(projection.name, [MEMORY_USAGE, MEMORY_USAGE_REVISIONS]);
    expect(await cache.counts(1, [10])).toEqual(new Map([[10, null]]));
  });
});
