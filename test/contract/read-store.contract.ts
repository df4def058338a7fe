/**
 * The ReadStore contract: every adapter runs this one suite. Names are unique per test, so it also runs
 * against a shared real engine.
 */
import type {
  FindOptions,
  ReadDocument,
  ReadStore,
  WriteOp,
} from '../../src/infrastructure/read-store/read-store.port';

import { describeCoordinationContract } from './read-store.contract-coordination';
import { ids, puts, seedCollection, unique } from './read-store.contract-helpers';
import { describeSortingContract } from './read-store.contract-sorting';

export type MakeReadStore = () => Promise<{ store: ReadStore; cleanup: () => Promise<void> }>;

/** Mixed types on purpose: numbers vs strings vs booleans, null vs missing, case and unicode. */
const FILTER_DOCS: ReadDocument[] = [
  { id: 'a', n: 1, s: 'apple' },
  { id: 'b', n: 2, s: 'Banana' },
  { id: 'c', n: 10, s: '10' },
  { id: 'd', n: '2', s: 'cherry pie' },
  { id: 'e', n: 2.5, s: null },
  { id: 'f', s: 'ÉCOLE' },
  { id: 'g', n: true },
  { id: 'h', n: null, s: 'banana split' },
];

export function describeReadStoreContract(name: string, makeStore: MakeReadStore): void {
  describe(name, () => {
    let store: ReadStore;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      ({ store, cleanup } = await makeStore());
    });
    afterAll(async () => {
      await cleanup?.();
    });

    const seed = (docs: ReadDocument[], indexed: string[] = [], collection = unique('c')) =>
      seedCollection(store, docs, indexed, collection);
    const findIds = async (collection: string, options: FindOptions) =>
      ids((await store.find(collection, options)).items);

    it('puts, replaces, gets and deletes documents through commits', async () => {
      const [c, p] = [unique('c'), unique('p')];
      await store.ensureCollection(c, ['kind']);
      await store.ensureCollection(c, ['kind']); // idempotent
      expect(await store.get(c, 'x')).toBeNull();
      const doc = {
        id: 'x',
        kind: 'note',
        nested: { list: [1, 'two', null], flag: false },
        text: 'héllo "q"',
      };
      expect(await store.commit(p, 0, { position: 3, version: 1 }, puts(c, [doc]))).toBe(true);
      expect(await store.get(c, 'x')).toEqual(doc);
      expect(await store.commit(p, 3, { position: 4, version: 1 }, puts(c, [{ id: 'x', other: 1 }]))).toBe(
        true,
      );
      expect(await store.get(c, 'x')).toEqual({ id: 'x', other: 1 }); // whole-document upsert
      const ops: WriteOp[] = [
        { op: 'delete', collection: c, id: 'x' },
        { op: 'delete', collection: c, id: 'never-existed' },
      ];
      expect(await store.commit(p, 4, { position: 5, version: 1 }, ops)).toBe(true);
      expect(await store.get(c, 'x')).toBeNull();
    });

    it('reads several documents at once (getMany): the existing ones, by id, duplicates once', async () => {
      const [c, p] = [unique('c'), unique('p')];
      await store.ensureCollection(c, []);
      const docs = [
        { id: 'a', v: 1 },
        { id: 'b', v: { nested: [1, null] } },
        { id: 'c', v: 3 },
      ];
      expect(await store.commit(p, 0, { position: 1, version: 1 }, puts(c, docs))).toBe(true);
      const found = await store.getMany(c, ['b', 'missing', 'a', 'b']);
      expect([...found.keys()].sort()).toEqual(['a', 'b']);
      expect(found.get('a')).toEqual({ id: 'a', v: 1 });
      expect(found.get('b')).toEqual({ id: 'b', v: { nested: [1, null] } });
      expect((await store.getMany(c, [])).size).toBe(0);
      expect((await store.getMany(unique('c'), ['a'])).size).toBe(0);
      await expect(
        store.getMany(
          c,
          Array.from({ length: 1001 }, (_, i) => String(i)),
        ),
      ).rejects.toThrow(RangeError);
    });

    it('applies ops in order', async () => {
      const [c, p] = [unique('c'), unique('p')];
      const ops: WriteOp[] = [
        { op: 'put', collection: c, doc: { id: '1', v: 1 } },
        { op: 'delete', collection: c, id: '1' },
        { op: 'delete', collection: c, id: '2' },
        { op: 'put', collection: c, doc: { id: '2', v: 1 } },
        { op: 'put', collection: c, doc: { id: '3', v: 1 } },
        { op: 'put', collection: c, doc: { id: '3', v: 2 } },
      ];
      expect(await store.commit(p, 0, { position: 1, version: 1 }, ops)).toBe(true);
      expect((await store.find(c)).items).toEqual([
        { id: '2', v: 1 },
        { id: '3', v: 2 },
      ]);
      // Ids are strings: a number never equals one, even where a database would coerce it.
      expect(await findIds(c, { filter: { id: 2 } })).toEqual([]);
      expect(await findIds(c, { filter: { id: { $in: [2, '3'] } } })).toEqual(['3']);
    });

    it('isolates collections (same id in two collections)', async () => {
      const [c1, c2, p] = [unique('c'), unique('c'), unique('p')];
      const ops = [...puts(c1, [{ id: 'same', in: 1 }]), ...puts(c2, [{ id: 'same', in: 2 }])];
      expect(await store.commit(p, 0, { position: 1, version: 1 }, ops)).toBe(true);
      expect(await store.get(c1, 'same')).toEqual({ id: 'same', in: 1 });
      expect(
        await store.commit(p, 1, { position: 2, version: 1 }, [{ op: 'delete', collection: c1, id: 'same' }]),
      ).toBe(true);
      expect(await store.get(c1, 'same')).toBeNull();
      expect(await store.find(c2)).toEqual({ items: [{ id: 'same', in: 2 }], total: 1 });
      expect(await store.find(c1)).toEqual({ items: [], total: 0 });
    });

    describe('filters', () => {
      const cases: Array<[string, FindOptions['filter'], string[]]> = [
        ['number equality is not string equality', { n: 2 }, ['b']],
        ['string equality is not number equality', { n: '2' }, ['d']],
        ['1 does not equal true', { n: 1 }, ['a']],
        ['boolean equality', { n: true }, ['g']],
        ['null matches null and missing', { n: null }, ['f', 'h']],
        ['string equality is case-sensitive', { s: 'banana' }, []],
        ['id equality', { id: 'b' }, ['b']],
        ['$in mixed types', { n: { $in: [1, '2', null] } }, ['a', 'd', 'f', 'h']],
        ['$in with a boolean', { n: { $in: [true, 10] } }, ['c', 'g']],
        ['$in empty matches nothing', { n: { $in: [] } }, []],
        ['$in on id', { id: { $in: ['a', 'c', 'zz'] } }, ['a', 'c']],
        ['ids are strings', { id: { $in: [1, null, true, 'h'] } }, ['h']],
        ['$ne on id', { id: { $ne: 'a' }, n: { $ne: null } }, ['b', 'c', 'd', 'e', 'g']],
        ['range on id', { id: { $gt: 'f' } }, ['g', 'h']],
        ['$ne number keeps other types and missing', { n: { $ne: 2 } }, ['a', 'c', 'd', 'e', 'f', 'g', 'h']],
        ['$ne null', { n: { $ne: null } }, ['a', 'b', 'c', 'd', 'e', 'g']],
        ['$ne string', { s: { $ne: 'apple' } }, ['b', 'c', 'd', 'e', 'f', 'g', 'h']],
        ['$ne boolean', { n: { $ne: true } }, ['a', 'b', 'c', 'd', 'e', 'f', 'h']],
        ['$gt number only matches numbers', { n: { $gt: 2 } }, ['c', 'e']],
        ['$gte', { n: { $gte: 2 } }, ['b', 'c', 'e']],
        ['$lt excludes null, missing, booleans', { n: { $lt: 2 } }, ['a']],
        ['$gt and $lte', { n: { $gt: 1, $lte: 2.5 } }, ['b', 'e']],
        ['string range', { s: { $gte: 'b', $lt: 'c' } }, ['h']],
        ['string $lt only matches strings (binary order)', { s: { $lt: 'a' } }, ['b', 'c']],
        ['string bound on a mixed field', { n: { $gt: '1' } }, ['d']],
        ['$contains is a case-insensitive substring', { s: { $contains: 'AN' } }, ['b', 'h']],
        ['$contains is unicode-aware', { s: { $contains: 'école' } }, ['f']],
        ['$contains treats regex characters literally', { s: { $contains: 'a.p' } }, []],
        ['$contains only matches strings', { n: { $contains: '1' } }, []],
        ['$contains empty matches every string', { s: { $contains: '' } }, ['a', 'b', 'c', 'd', 'f', 'h']],
        ['conjunction', { n: { $gte: 1 }, s: { $contains: 'a' } }, ['a', 'b']],
        ['$or', { $or: [{ n: 1 }, { s: 'cherry pie' }] }, ['a', 'd']],
        [
          '$or with a conjunction',
          { s: { $ne: null }, $or: [{ n: { $gt: 5 } }, { n: null }] },
          ['c', 'f', 'h'],
        ],
        [
          '$or branch conjunctions',
          { $or: [{ n: { $gte: 2 }, s: { $contains: 'b' } }, { id: 'g' }] },
          ['b', 'g'],
        ],
        ['empty $or matches nothing', { $or: [] }, []],
        [
          '$or of an empty branch matches everything',
          { $or: [{}] },
          ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
        ],
        ['empty filter', {}, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']],
      ];
      let indexed: string;
      let plain: string;
      beforeAll(async () => {
        indexed = await seed(FILTER_DOCS, ['n', 's']);
        plain = await seed(FILTER_DOCS);
      });
      it.each(cases)('%s', async (_title, filter, expected) => {
        expect(await findIds(indexed, { filter })).toEqual(expected);
        expect(await findIds(plain, { filter })).toEqual(expected);
        expect((await store.find(indexed, { filter, limit: 1 })).total).toBe(expected.length);
      });
      it('rejects malformed filters', async () => {
        const bad: unknown[] = [
          { 'a.b': 1 },
          { $and: [] },
          { n: { $regex: 'x' } },
          { n: { $in: 'x' } },
          { n: [1] },
        ];
        for (const filter of bad) {
          await expect(store.find(indexed, { filter } as FindOptions)).rejects.toThrow(TypeError);
        }
        await expect(store.find('bad name!', {})).rejects.toThrow(TypeError);
      });
    });

    describeSortingContract(() => store);
    describeCoordinationContract(() => store);
  });
}
