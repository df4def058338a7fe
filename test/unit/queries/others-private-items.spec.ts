import type { FindOptions, ReadStore } from '../../../src/infrastructure/read-store/read-store.port';
import { MAX_EXCLUDED_VALUES } from '../../../src/infrastructure/search/search-index.port';
import { OthersPrivateItems, REFRESH_INTERVAL_MS } from '../../../src/queries/memory/others-private-items';

interface Note {
  memory_item_id: number;
  owner_client_key: string;
  organization_id: number;
}

/** A read store of private notes answering the one find OthersPrivateItems makes (ids above `$gt`, ascending). */
function storeOf(notes: Note[]) {
  const asked: FindOptions[] = [];
  const store = {
    async find(_collection: string, options: FindOptions) {
      asked.push(options);
      const after = (options.filter?.memory_item_id as { $gt: number }).$gt;
      const matching = notes
        .filter((note) => note.memory_item_id > after)
        .sort((a, b) => a.memory_item_id - b.memory_item_id);
      const items = matching
        .slice(0, options.limit ?? 100)
        .map((note) => ({ id: String(note.memory_item_id), ...note }));
      return { items, total: matching.length };
    },
  } as unknown as ReadStore;
  return { store, asked };
}

/** The corpus revision as the handler hands it over: read on demand, each read counted. */
let revisionReads = 0;
const at = (revision: string) => async (): Promise<string> => {
  revisionReads += 1;
  return revision;
};

const note = (memory_item_id: number, owner_client_key: string, organization_id = 1): Note => ({
  memory_item_id,
  owner_client_key,
  organization_id,
});

describe('OthersPrivateItems', () => {
  it('excludes other connectors’ private items (default visibility), or all of them (organization_internal)', async () => {
    const { store, asked } = storeOf([note(3, 'ck_a'), note(5, 'ck_b'), note(8, 'ck_a')]);
    const others = new OthersPrivateItems(store);
    expect([...((await others.of(1, 'ck_a', at('idx_1'), 0)) ?? [])]).toEqual([5]);
    expect([...((await others.of(1, 'ck_b', at('idx_1'), 0)) ?? [])]).toEqual([3, 8]);
    expect([...((await others.of(1, null, at('idx_1'), 0)) ?? [])]).toEqual([3, 5, 8]);
    // A connector with every private item its own: nothing to exclude.
    const own = new OthersPrivateItems(storeOf([note(3, 'ck_a')]).store);
    expect(await own.of(1, 'ck_a', at('idx_1'), 0)).toBeUndefined();
    // One read for the revision, of private items by their owner's sparse index, ascending from the start.
    expect(asked).toEqual([
      {
        filter: {
          owner_client_key: { $ne: null },
          visibility: 'tool_private',
          memory_item_id: { $gt: 0 },
        },
        sort: [{ field: 'memory_item_id', direction: 'asc' }],
        limit: 2000,
      },
    ]);
  });

  it('reads only items created since, at most once per REFRESH_INTERVAL_MS while the revision moves', async () => {
    const notes = [note(3, 'ck_a')];
    const { store, asked } = storeOf(notes);
    const others = new OthersPrivateItems(store);
    revisionReads = 0;
    expect([...((await others.of(1, 'ck_b', at('idx_1'), 1_000)) ?? [])]).toEqual([3]);
    notes.push(note(4, 'ck_a'));
    // The revision moved, but too soon: the list (still correct, only shorter) is kept.
    expect([...((await others.of(1, 'ck_b', at('idx_2'), 1_000 + REFRESH_INTERVAL_MS - 1)) ?? [])]).toEqual([
      3,
    ]);
    expect(asked).toHaveLength(1);
    // Nor was the revision read then: a search costs no read of the corpus within the interval.
    expect(revisionReads).toBe(1);
    expect([...((await others.of(1, 'ck_b', at('idx_2'), 1_000 + REFRESH_INTERVAL_MS)) ?? [])]).toEqual([
      3, 4,
    ]);
    expect(asked).toHaveLength(2);
    expect(asked[1].filter?.memory_item_id).toEqual({ $gt: 3 });
    // The same revision later: the revision read, no item.
    await others.of(1, 'ck_b', at('idx_2'), 10 * REFRESH_INTERVAL_MS);
    expect(asked).toHaveLength(2);
    expect(revisionReads).toBe(3);
    // Organizations apart: another organization's list is its own (the store holds only organization 1's notes).
    expect(await others.of(2, 'ck_b', at('idx_2'), 10 * REFRESH_INTERVAL_MS)).toBeUndefined();
    expect(asked).toHaveLength(3);
  });

  it('lists an organization’s items only, past another organization’s with higher ids', async () => {
    const notes = [note(2, 'ck_x', 2), note(3, 'ck_a'), note(6, 'ck_y', 2), note(9, 'ck_a')];
    const others = new OthersPrivateItems(storeOf(notes).store);
    expect([...((await others.of(1, 'ck_b', at('idx_1'), 0)) ?? [])]).toEqual([3, 9]);
    expect([...((await others.of(1, null, at('idx_1'), 0)) ?? [])]).toEqual([3, 9]);
    expect([...((await others.of(2, 'ck_a', at('idx_1'), 0)) ?? [])]).toEqual([2, 6]);
  });

  it('shares one read between concurrent searches, and pages through many items', async () => {
    const notes = Array.from({ length: 4_500 }, (_, n) => note(n + 1, n % 2 === 0 ? 'ck_a' : 'ck_b'));
    const { store, asked } = storeOf(notes);
    const others = new OthersPrivateItems(store);
    const [a, b] = await Promise.all([
      others.of(1, 'ck_a', at('idx_1'), 0),
      others.of(1, 'ck_b', at('idx_1'), 0),
    ]);
    expect(asked.map((options) => options.filter?.memory_item_id)).toEqual([
      { $gt: 0 },
      { $gt: 2_000 },
      { $gt: 4_000 },
    ]);
    expect(a?.size).toBe(2_250);
    expect(b?.size).toBe(2_250);
    expect([...(a ?? [])].every((id) => id % 2 === 0)).toBe(true);
  });

  it(`excludes at most ${MAX_EXCLUDED_VALUES} items (what a search takes); the rest are filtered after ranking`, async () => {
    const notes = Array.from({ length: MAX_EXCLUDED_VALUES + 5 }, (_, n) => note(n + 1, 'ck_a'));
    const excluded = await new OthersPrivateItems(storeOf(notes).store).of(1, 'ck_b', at('idx_1'), 0);
    expect(excluded?.size).toBe(MAX_EXCLUDED_VALUES);
  });
});

describe('OthersPrivateItems bounds over organizations', () => {
  /** Reads of a list from the start (an organization's list read anew), over every organization. */
  const fromStart = (asked: FindOptions[]) =>
    asked.filter((options) => (options.filter?.memory_item_id as { $gt: number }).$gt === 0).length;

  it('keeps at most maxOrganizations lists, dropping the least recently searched one', async () => {
    const { store, asked } = storeOf([note(1, 'ck_a', 1), note(2, 'ck_a', 2), note(3, 'ck_a', 3)]);
    const others = new OthersPrivateItems(store, { maxOrganizations: 2 });
    expect([...((await others.of(1, 'ck_b', at('idx_1'), 0)) ?? [])]).toEqual([1]);
    expect([...((await others.of(2, 'ck_b', at('idx_1'), 0)) ?? [])]).toEqual([2]);
    // Organization 1 searched again: now 2 is the least recent, and a third organization drops it.
    await others.of(1, 'ck_b', at('idx_1'), 0);
    expect([...((await others.of(3, 'ck_b', at('idx_1'), 0)) ?? [])]).toEqual([3]);
    expect(fromStart(asked)).toBe(3);
    // Organization 1's list was kept (no read within the interval); 2's is read again, and is right.
    expect([...((await others.of(1, 'ck_b', at('idx_1'), 0)) ?? [])]).toEqual([1]);
    expect(fromStart(asked)).toBe(3);
    expect([...((await others.of(2, 'ck_b', at('idx_1'), 0)) ?? [])]).toEqual([2]);
    expect(fromStart(asked)).toBe(4);
    expect(others.trackedItems).toBe(2);
  });

  it('drops the least recently searched lists once the items remembered pass maxTrackedTotal, never the one in use', async () => {
    const notes = [
      ...[1, 2, 3].map((id) => note(id, 'ck_a', 1)),
      ...[4, 5, 6].map((id) => note(id, 'ck_a', 2)),
      ...[7, 8, 9, 10, 11].map((id) => note(id, 'ck_a', 3)),
    ];
    const { store, asked } = storeOf(notes);
    const others = new OthersPrivateItems(store, { maxTrackedTotal: 4 });
    expect([...((await others.of(1, 'ck_b', at('idx_1'), 0)) ?? [])]).toEqual([1, 2, 3]);
    expect(others.trackedItems).toBe(3);
    // Organization 2's three items make six: organization 1's list is dropped.
    expect([...((await others.of(2, 'ck_b', at('idx_1'), 0)) ?? [])]).toEqual([4, 5, 6]);
    expect(others.trackedItems).toBe(3);
    // Five items alone are past the bound: the list in use is kept all the same, every other dropped.
    expect([...((await others.of(3, 'ck_b', at('idx_1'), 0)) ?? [])]).toEqual([7, 8, 9, 10, 11]);
    expect(others.trackedItems).toBe(5);
    const reads = fromStart(asked);
    expect([...((await others.of(2, 'ck_b', at('idx_1'), 0)) ?? [])]).toEqual([4, 5, 6]);
    expect(fromStart(asked)).toBe(reads + 1);
    expect(others.trackedItems).toBe(3);
  });
});
