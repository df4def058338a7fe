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
import {
  ARRAY_DOCS,
  ARRAY_FILTER_CASES,
  ARRAY_SORT_ASC,
  ARRAY_SORT_DESC,
  inSortOrder,
} from './read-store.contract-array-cases';
import { FILTER_CASES, FILTER_DOCS } from './read-store.contract-filter-cases';
import { contractIt, ids, type KnownGaps, puts, seedCollection, unique } from './read-store.contract-helpers';
import { describeSortingContract } from './read-store.contract-sorting';

export type MakeReadStore = () => Promise<{ store: ReadStore; cleanup: () => Promise<void> }>;

export function describeReadStoreContract(
  name: string,
  makeStore: MakeReadStore,
  gaps: KnownGaps = new Map(),
): void {
  const it = contractIt(gaps);
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

    it('keeps packed fields: read back in place by get, getMany and find; left out at most on request', async () => {
      const [c, p] = [unique('c'), unique('p')];
      await store.ensureCollection(c, ['organization_id'], { packed: ['chunks', 'content'] });
      const chunk = (n: number) => ({
        memory_chunk_id: n,
        ordinal: n,
        heading: n % 2 === 0 ? null : `Section ${n}`,
        text: `Paragraph ${n}: the runbook's step ${n} restarts the «worker» pool; ${'détail '.repeat(40)}`,
      });
      const item = {
        id: '1',
        organization_id: 'org-1',
        title: 'Runbook',
        chunks: [chunk(1), chunk(2), chunk(3)],
        summary: 'restarts',
        revision: 2,
      };
      const withoutChunks = { id: '2', organization_id: 'org-1', title: 'Empty', chunks: null, revision: 1 };
      const other = { id: '3', organization_id: 'org-2', title: 'Elsewhere', content: 'x'.repeat(500) };
      expect(
        await store.commit(p, 0, { position: 1, version: 1 }, puts(c, [item, withoutChunks, other])),
      ).toBe(true);
      // Same values and the same key order (serialized alike).
      expect(JSON.stringify(await store.get(c, '1'))).toBe(JSON.stringify(item));
      expect(JSON.stringify(await store.get(c, '2'))).toBe(JSON.stringify(withoutChunks));
      const many = await store.getMany(c, ['1', '2', '3']);
      expect(JSON.stringify(many.get('1'))).toBe(JSON.stringify(item));
      expect(JSON.stringify(many.get('3'))).toBe(JSON.stringify(other));
      const found = await store.find(c, {
        filter: { organization_id: 'org-1' },
        sort: [{ field: 'title', direction: 'asc' }],
      });
      expect(found.items.map((doc) => JSON.stringify(doc))).toEqual(
        [withoutChunks, item].map((doc) => JSON.stringify(doc)),
      );
      // Asked without packed fields: every other field as stored; the packed ones whole or null, never partial.
      const light = (await store.getMany(c, ['1'], { packed: false })).get('1');
      const { chunks, ...rest } = light as typeof item;
      expect({ ...rest, chunks: undefined }).toEqual({ ...item, chunks: undefined });
      expect([null, JSON.stringify(item.chunks)]).toContain(chunks === null ? null : JSON.stringify(chunks));
      // A replacement without the packed field has none left.
      expect(
        await store.commit(p, 1, { position: 2, version: 1 }, puts(c, [{ id: '1', title: 'Runbook' }])),
      ).toBe(true);
      expect(await store.get(c, '1')).toEqual({ id: '1', title: 'Runbook' });
      // Every adapter refuses what cannot be packed: the id, an indexed field, a reserved or malformed name.
      for (const packed of [['id'], ['organization_id'], ['__proto__'], ['bad-name']]) {
        await expect(store.ensureCollection(unique('c'), ['organization_id'], { packed })).rejects.toThrow();
      }
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
      let indexed: string;
      let plain: string;
      beforeAll(async () => {
        indexed = await seed(FILTER_DOCS, ['n', 's']);
        plain = await seed(FILTER_DOCS);
      });
      for (const [title, filter, expected] of FILTER_CASES) {
        it(title, async () => {
          expect(await findIds(indexed, { filter })).toEqual(expected);
          expect(await findIds(plain, { filter })).toEqual(expected);
          expect((await store.find(indexed, { filter, limit: 1 })).total).toBe(expected.length);
        });
      }
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

    describe('arrays: one opaque value, as an object is', () => {
      let indexed: string;
      let plain: string;
      beforeAll(async () => {
        indexed = await seed([...ARRAY_DOCS].reverse(), ['t']);
        plain = await seed(ARRAY_DOCS);
      });
      for (const [title, filter, expected] of ARRAY_FILTER_CASES) {
        it(title, async () => {
          expect(await findIds(indexed, { filter })).toEqual(expected);
          expect(await findIds(plain, { filter })).toEqual(expected);
          expect((await store.find(indexed, { filter, limit: 1 })).total).toBe(expected.length);
        });
      }
      it('sorts arrays with objects, after strings and before booleans, the same on every page', async () => {
        for (const c of [indexed, plain]) {
          const asc = await findIds(c, { sort: [{ field: 't', direction: 'asc' }] });
          expect({ asc, ok: inSortOrder(asc, ARRAY_SORT_ASC) }).toEqual({ asc, ok: true });
          const desc = await findIds(c, { sort: [{ field: 't', direction: 'desc' }] });
          expect({ desc, ok: inSortOrder(desc, ARRAY_SORT_DESC) }).toEqual({ desc, ok: true });
          const pages: string[] = [];
          for (let offset = 0; offset < asc.length; offset += 3) {
            const page = await store.find(c, { sort: [{ field: 't', direction: 'asc' }], offset, limit: 3 });
            pages.push(...ids(page.items));
          }
          expect(pages).toEqual(asc);
        }
      });
      it('reads arrays back as written', async () => {
        const found = await store.find(plain, { filter: { id: { $in: ['a', 'f', 'h'] } } });
        expect(found.items).toEqual(ARRAY_DOCS.filter((doc) => ['a', 'f', 'h'].includes(doc.id)));
        expect(await store.get(plain, 'c')).toEqual({ id: 'c', t: [1, 5] });
      });
    });

    describeSortingContract(() => store, it);
    describeCoordinationContract(() => store, it);
  });
  const unused = it.unused();
  if (unused.length > 0) throw new Error(`known gaps naming no contract test: ${unused.join('; ')}`);
}
