/** The ReadStore contract, part three: sorting and paging (see read-store.contract.ts). */
import type {
  FindOptions,
  ReadDocument,
  ReadStore,
} from '../../src/infrastructure/read-store/read-store.port';
import { type ContractIt, ids, seedCollection } from './read-store.contract-helpers';

/** Values of every kind in one field; the orders the contract requires (ties by id asc). */
export const TYPE_ORDER_DOCS: ReadDocument[] = [
  { id: 'a', v: 3 },
  { id: 'b', v: 'a' },
  { id: 'c' },
  { id: 'd', v: null },
  { id: 'e', v: 10 },
  { id: 'f', v: 'B' },
  { id: 'g', v: 3 },
  { id: 'h', v: true },
  { id: 'i', v: false },
  { id: 'j', v: { x: 1 } },
  { id: 'k', v: -0.5 },
];
export const TYPE_ORDER_ASC = ['c', 'd', 'k', 'a', 'g', 'e', 'f', 'b', 'j', 'i', 'h'];
export const TYPE_ORDER_DESC = ['h', 'i', 'j', 'b', 'f', 'e', 'a', 'g', 'k', 'c', 'd'];

export function describeSortingContract(getStore: () => ReadStore, it: ContractIt): void {
  let store: ReadStore;
  beforeAll(() => {
    store = getStore();
  });
  const seed = (docs: ReadDocument[], indexed: string[] = []) => seedCollection(store, docs, indexed);
  const findIds = async (collection: string, options: FindOptions) =>
    ids((await store.find(collection, options)).items);

  describe('sorting and paging', () => {
    it('orders null/missing < numbers < strings < objects < false < true, ties by id asc', async () => {
      const docs = TYPE_ORDER_DOCS;
      const c = await seed([...docs].reverse(), ['v']);
      expect(await findIds(c, { sort: [{ field: 'v', direction: 'asc' }] })).toEqual(TYPE_ORDER_ASC);
      expect(await findIds(c, { sort: [{ field: 'v', direction: 'desc' }] })).toEqual(TYPE_ORDER_DESC);
      const byIdDesc = [...docs].map((d) => d.id).reverse();
      expect(await findIds(c, { sort: [{ field: 'id', direction: 'desc' }] })).toEqual(byIdDesc);
      expect(await findIds(c, {})).toEqual(docs.map((d) => d.id));
      expect(
        await findIds(c, { filter: { v: { $gt: -1 } }, sort: [{ field: 'v', direction: 'desc' }] }),
      ).toEqual(['e', 'a', 'g', 'k']);
    });

    it('sorts on several keys', async () => {
      const docs = [
        { id: 'a', g: 'x', score: 1 },
        { id: 'b', g: 'y', score: 5 },
        { id: 'c', g: 'x', score: 3 },
        { id: 'd', g: 'x', score: 3 },
        { id: 'e', g: 'y', score: 1 },
      ];
      const c = await seed(docs, ['g', 'score']);
      const sort = [
        { field: 'g', direction: 'asc' as const },
        { field: 'score', direction: 'desc' as const },
      ];
      expect(await findIds(c, { sort })).toEqual(['c', 'd', 'a', 'b', 'e']);
      expect(await findIds(c, { sort, filter: { score: { $lt: 5 } }, offset: 1, limit: 2 })).toEqual([
        'd',
        'a',
      ]);
    });

    it('pages stably over many equal sort keys (no repeats, no gaps)', async () => {
      const docs = Array.from({ length: 150 }, (_, i) => ({
        id: `doc-${String(i).padStart(3, '0')}`,
        k: i % 3,
        o: 'x',
      }));
      const c = await seed(docs.reverse(), ['k']);
      for (const direction of ['asc', 'desc'] as const) {
        const seen: string[] = [];
        for (let offset = 0; ; offset += 7) {
          const page = await store.find(c, {
            sort: [{ field: 'k', direction }],
            filter: { o: 'x' },
            limit: 7,
            offset,
          });
          expect(page.total).toBe(150);
          if (page.items.length === 0) break;
          seen.push(...ids(page.items));
        }
        const expected = [...docs]
          .sort((x, y) => (direction === 'asc' ? x.k - y.k : y.k - x.k) || (x.id < y.id ? -1 : 1))
          .map((d) => d.id);
        expect(seen).toEqual(expected);
      }
    });

    it('applies limit, offset and total', async () => {
      const docs = Array.from({ length: 150 }, (_, i) => ({
        id: `d${String(i).padStart(3, '0')}`,
        even: i % 2 === 0,
      }));
      const c = await seed(docs, ['even']);
      const all = await store.find(c);
      expect(all.items).toHaveLength(100); // default limit
      expect(all.total).toBe(150);
      const evens = { filter: { even: true } };
      expect(await store.find(c, { ...evens, limit: 5 })).toMatchObject({ total: 75 });
      expect(ids((await store.find(c, { ...evens, limit: 5, offset: 1 })).items)).toEqual([
        'd002',
        'd004',
        'd006',
        'd008',
        'd010',
      ]);
      expect(await store.find(c, { ...evens, offset: 73 })).toEqual({
        items: [docs[146], docs[148]],
        total: 75,
      });
      expect(await store.find(c, { ...evens, offset: 500 })).toEqual({ items: [], total: 75 });
      expect(await store.find(c, { ...evens, limit: 0 })).toEqual({ items: [], total: 75 });
      expect((await store.find(c, { limit: 10_000 })).items).toHaveLength(150);
      for (const bad of [{ limit: 10_001 }, { limit: -1 }, { limit: 1.5 }, { offset: -1 }, { offset: 0.5 }]) {
        await expect(store.find(c, bad)).rejects.toThrow(RangeError);
      }
    });
  });
}
