import type { FindOptions, ReadStore } from '../../../src/infrastructure/read-store/read-store.port';
import { MAX_RESTRICTED_ITEMS, OwnPrivateItems } from '../../../src/queries/memory/own-private-items';

/** A read store whose memory items are `count` private notes of one connector (ids descending, as unsorted). */
function storeWith(count: number) {
  const asked: FindOptions[] = [];
  const store = {
    async find(_collection: string, options: FindOptions) {
      asked.push(options);
      const items = Array.from({ length: Math.min(count, options.limit ?? 100) }, (_, n) => ({
        id: String(count - n),
        memory_item_id: count - n,
      }));
      return { items, total: count };
    },
  } as unknown as ReadStore;
  return { store, asked };
}

describe('OwnPrivateItems', () => {
  it('lists the connector’s active tool_private items, ascending, once per corpus revision', async () => {
    const { store, asked } = storeWith(3);
    const own = new OwnPrivateItems(store);
    expect(await own.of(7, 'ck_a', 'idx_1')).toEqual([1, 2, 3]);
    expect(await own.of(7, 'ck_a', 'idx_1')).toEqual([1, 2, 3]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toEqual({
      filter: {
        organization_id: 7,
        owner_client_key: 'ck_a',
        visibility: 'tool_private',
        lifecycle_status: 'active',
      },
      limit: MAX_RESTRICTED_ITEMS + 1,
    });
    await own.of(7, 'ck_a', 'idx_2');
    await own.of(7, 'ck_b', 'idx_2');
    expect(asked).toHaveLength(3);
  });

  it.each([
    [MAX_RESTRICTED_ITEMS, MAX_RESTRICTED_ITEMS],
    [MAX_RESTRICTED_ITEMS + 1, null],
  ])(
    '%i items: %p (more than a search can be restricted to: null, the filters decide)',
    async (count, length) => {
      const ids = await new OwnPrivateItems(storeWith(count).store).of(1, 'ck_a', 'idx_1');
      expect(ids === null ? null : ids.length).toBe(length);
    },
  );
});
