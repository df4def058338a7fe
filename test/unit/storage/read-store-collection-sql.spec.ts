import { join } from 'node:path';
import { parseFindOptions } from '../../../src/infrastructure/read-store/read-store-query';
import type { FindOptions } from '../../../src/infrastructure/read-store/read-store.port';
import {
  collectionIndex,
  collectionSql,
  findSql,
} from '../../../src/infrastructure/read-store/sqlite/collection-sql';
import { fieldValueSql } from '../../../src/infrastructure/read-store/sqlite/sqlite-filter';
import { SqliteReadStore } from '../../../src/infrastructure/read-store/sqlite/sqlite-read-store';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { makeTempDir } from '../../support/temp-dir';

describe('SqliteReadStore: one partial index per collection and field, collections named as literals', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let db: SqliteDatabase;
  let store: SqliteReadStore;
  beforeEach(() => {
    tmp = makeTempDir('cairn-read-store-');
    db = openSqlite({ path: join(tmp.dir, 'cairn.db') });
    store = new SqliteReadStore(db);
  });
  afterEach(() => {
    db.close();
    tmp.cleanup();
  });

  it("plans find() on its collection's partial expression indexes: filters, sorts, ranges and counts", async () => {
    await store.ensureCollection('items', ['organization_id', 'rank']);
    const plans = (collection: string, options: FindOptions) => {
      const { pageSql, countSql, params } = findSql(collection, parseFindOptions(options));
      const plan = (sql: string, ...extra: unknown[]) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params, ...extra) as Array<{ detail: string }>)
          .map((r) => r.detail)
          .join(' | ');
      return { page: plan(pageSql, 24, 0), count: plan(countSql) };
    };
    const filtered = plans('items', { filter: { organization_id: 'o' } });
    expect(filtered.page).toMatch(
      /USING INDEX read_documents_in_items_by_organization_id_\w+ \(collection=\? AND <expr>=\?\)/,
    );
    expect(filtered.page).not.toMatch(/TEMP B-TREE/);
    expect(filtered.count).toMatch(/USING COVERING INDEX read_documents_in_items_by_organization_id_/);
    const sorted = plans('items', { sort: [{ field: 'rank', direction: 'desc' }] });
    expect(sorted.page).toMatch(/USING INDEX read_documents_in_items_by_rank_/);
    const ranged = plans('items', {
      filter: { rank: { $gt: 1, $lt: 9 } },
      sort: [{ field: 'rank', direction: 'asc' }],
    });
    expect(ranged.page).toMatch(
      /USING INDEX read_documents_in_items_by_rank_\w+ \(collection=\? AND <expr>>\? AND <expr><\?\)/,
    );
    expect(ranged.page).not.toMatch(/TEMP B-TREE/);
    // Another collection's finds cannot use them (they hold only `items` rows).
    expect(plans('other', { filter: { organization_id: 'o' } }).page).not.toMatch(/read_documents_in_items/);
  });

  it("indexes each collection's rows only, in the indexes that collection declared", async () => {
    await store.ensureCollection('items', ['organization_id', 'status']);
    await store.ensureCollection('sources', ['organization_id']);
    const docs = [
      ...[1, 2, 3].map((n) => ({
        op: 'put' as const,
        collection: 'items',
        doc: { id: `${n}`, organization_id: 1 },
      })),
      ...[1, 2].map((n) => ({
        op: 'put' as const,
        collection: 'sources',
        doc: { id: `${n}`, organization_id: 1 },
      })),
    ];
    expect(await store.commit('memory', 0, { position: 1, version: 1 }, docs)).toBe(true);
    const entries = (name: string) =>
      (
        db.prepare('SELECT ncell FROM dbstat WHERE name = ? AND aggregate = TRUE').get(name) as {
          ncell: number;
        }
      ).ncell;
    expect(entries(collectionIndex('items', 'organization_id').name)).toBe(3);
    expect(entries(collectionIndex('items', 'status').name)).toBe(3);
    expect(entries(collectionIndex('sources', 'organization_id').name)).toBe(2);
    const indexes = db
      .prepare(
        `SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'read_documents' AND sql IS NOT NULL`,
      )
      .pluck()
      .all();
    expect(indexes).toHaveLength(3);
    expect((await store.find('items', { filter: { organization_id: 1 } })).total).toBe(3);
    expect((await store.find('sources', { filter: { organization_id: 1 } })).total).toBe(2);
  });

  it("drops a collection's indexes it no longer declares, and no other collection's", async () => {
    const names = () =>
      db
        .prepare(
          `SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'read_documents' AND sql IS NOT NULL ORDER BY name`,
        )
        .pluck()
        .all();
    await store.ensureCollection('items', ['organization_id', 'status', 'owner'], { sparse: ['owner'] });
    // A collection whose name and fields could be mistaken for the other's by a name prefix.
    await store.ensureCollection('items_by_x', ['organization_id']);
    await store.ensureCollection('items', ['organization_id', 'owner'], { sparse: ['owner'] });
    expect(names()).toEqual(
      [
        collectionIndex('items', 'organization_id').name,
        collectionIndex('items', 'owner', true).name,
        collectionIndex('items_by_x', 'organization_id').name,
      ].sort(),
    );
    // An index whose expression changed (sparse no more) is another index: the old one goes.
    await store.ensureCollection('items', ['organization_id', 'owner']);
    expect(names()).toContain(collectionIndex('items', 'owner').name);
    expect(names()).not.toContain(collectionIndex('items', 'owner', true).name);
    expect(names()).toContain(collectionIndex('items_by_x', 'organization_id').name);
  });

  it('reads, deletes and resets every collection alike once partial indexes exist (no statement binds a collection)', async () => {
    // The store's statements exist before the indexes do: SQLite re-plans a `collection = ?` statement for the
    // value bound when an index appears and then misses other collections' rows (collection-indexes.ts).
    const doc = (id: string) => ({ id, organization_id: 1 });
    for (const collection of ['a', 'b']) {
      expect(await store.get(collection, '1')).toBeNull();
      expect((await store.getMany(collection, ['1'])).size).toBe(0);
      expect((await store.getMany(collection, ['1'], { packed: false })).size).toBe(0);
    }
    expect(
      await store.commit('p', 0, { position: 0, version: 1 }, [{ op: 'delete', collection: 'a', id: '0' }]),
    ).toBe(true);
    await store.reset('p', ['a', 'b']);
    await store.ensureCollection('a', ['organization_id']);
    await store.ensureCollection('b', []);
    const put = (collection: string, id: string) => ({ op: 'put' as const, collection, doc: doc(id) });
    expect(
      await store.commit('p', 0, { position: 1, version: 1 }, [
        put('a', '1'),
        put('a', '2'),
        put('b', '1'),
        put('b', '2'),
      ]),
    ).toBe(true);
    expect(await store.get('a', '1')).toEqual(doc('1'));
    expect(await store.get('b', '1')).toEqual(doc('1'));
    expect([...(await store.getMany('a', ['1', '2'])).keys()]).toEqual(['1', '2']);
    expect([...(await store.getMany('b', ['1', '2'])).keys()]).toEqual(['1', '2']);
    expect(
      await store.commit('p', 1, { position: 2, version: 1 }, [
        { op: 'delete', collection: 'a', id: '2' },
        { op: 'delete', collection: 'b', id: '2' },
      ]),
    ).toBe(true);
    expect(await store.get('b', '2')).toBeNull();
    await store.reset('p', ['a', 'b']);
    expect(db.prepare('SELECT collection, id FROM read_documents').all()).toEqual([]);
  });

  it('drops the indexes shared by all collections (layout 1) and answers as before', async () => {
    const org = fieldValueSql('organization_id');
    db.exec(`CREATE INDEX read_documents_by_organization_id_0123456789 ON read_documents (collection, ${org}, id);
      INSERT INTO read_documents (collection, id, doc) VALUES ('items', '1', jsonb('{"id":"1","organization_id":7}'));`);
    await store.ensureCollection('items', ['organization_id']);
    const indexes = db
      .prepare(
        `SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'read_documents' AND sql IS NOT NULL`,
      )
      .pluck()
      .all();
    expect(indexes).toEqual([collectionIndex('items', 'organization_id').name]);
    expect((await store.find('items', { filter: { organization_id: 7 } })).items).toEqual([
      { id: '1', organization_id: 7 },
    ]);
  });

  it('a sparse field is indexed where not null: finds by a value use it, finds by null still find', async () => {
    await store.ensureCollection('items', ['organization_id', 'owner'], { sparse: ['owner'] });
    const docs = Array.from({ length: 40 }, (_, n) => ({
      id: String(n),
      organization_id: 'o',
      owner: n % 10 === 0 ? `k${n % 20}` : null,
    }));
    await store.commit(
      'p',
      0,
      { position: 1, version: 1 },
      docs.map((doc) => ({ op: 'put', collection: 'items', doc })),
    );
    const index = collectionIndex('items', 'owner', true);
    expect(index.sql).toContain('IS NOT NULL');
    expect(index.name).not.toBe(collectionIndex('items', 'owner').name);
    // Only the 4 documents with an owner are in it.
    db.exec('ANALYZE');
    const stat = db.prepare('SELECT stat FROM sqlite_stat1 WHERE idx = ?').get(index.name) as {
      stat: string;
    };
    expect(stat.stat.split(' ')[0]).toBe('4');
    const { pageSql, params } = findSql('items', parseFindOptions({ filter: { owner: 'k0' } }));
    const plan = (
      db.prepare(`EXPLAIN QUERY PLAN ${pageSql}`).all(...params, 10, 0) as Array<{ detail: string }>
    )
      .map((row) => row.detail)
      .join(' | ');
    expect(plan).toContain(`USING INDEX ${index.name}`);
    expect((await store.find('items', { filter: { owner: 'k0' } })).items.map((d) => d.id)).toEqual([
      '0',
      '20',
    ]);
    expect((await store.find('items', { filter: { owner: null }, limit: 100 })).total).toBe(36);
    await expect(store.ensureCollection('items', ['organization_id'], { sparse: ['owner'] })).rejects.toThrow(
      RangeError,
    );
  });

  it('names a collection in SQL only when its name is safe to quote', () => {
    expect(collectionSql('memory_items')).toBe("collection = 'memory_items'");
    for (const name of ["x' OR 1=1 --", '', 'a'.repeat(101), 'a b'])
      expect(() => collectionSql(name)).toThrow(TypeError);
  });
});
