import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import {
  deflateText,
  WORKER_FROM_UNITS as DEFLATE_THREAD_FROM_UNITS,
} from '../../src/infrastructure/read-store/sqlite/deflate-worker';
import { PACKED_DEFLATE_LEVEL } from '../../src/infrastructure/read-store/sqlite/packed-fields';
import { SqliteReadStore } from '../../src/infrastructure/read-store/sqlite/sqlite-read-store';
import { openSqlite, type SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';
import { makeTempDir } from '../support/temp-dir';
import { describeReadStoreContract } from './read-store.contract';

describeReadStoreContract('ReadStore contract: SQLite', async () => {
  const tmp = makeTempDir('cairn-read-store-');
  const db = openSqlite({ path: join(tmp.dir, 'cairn.db') });
  const store = new SqliteReadStore(db);
  return {
    store,
    cleanup: async () => {
      await store.close();
      db.close();
      tmp.cleanup();
    },
  };
});

describe('SqliteReadStore specifics', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let db: SqliteDatabase;
  let store: SqliteReadStore;
  beforeEach(() => {
    tmp = makeTempDir('cairn-read-store-');
    db = openSqlite({ path: join(tmp.dir, 'cairn.db') });
    store = new SqliteReadStore(db);
  });
  afterEach(async () => {
    await store.close();
    db.close();
    tmp.cleanup();
  });

  it('shares the handle: schema creation is idempotent and close leaves the handle open', async () => {
    const again = new SqliteReadStore(db);
    await again.close();
    await expect(store.ping()).resolves.toBeUndefined();
    expect(db.open).toBe(true);
  });

  it("stores a large batch's packed fields (compressed on the deflate thread) byte for byte as a small one's", async () => {
    await store.ensureCollection('items', ['organization_id'], { packed: ['chunks'] });
    // Eight sections of a runbook per item, each revised differently: 40 items are ~280,000 UTF-16 units of chunks,
    // over the thread's threshold; one item alone is under it (compressed inline).
    const item = (n: number, revision: number) => ({
      id: `i${n}`,
      organization_id: 'org',
      title: `Runbook ${n}`,
      chunks: Array.from({ length: 8 }, (_, s) => ({
        memory_chunk_id: n * 8 + s,
        text:
          `Section ${s + 1} of runbook ${n} (revision ${revision}): drain the queue on höst-${s}, ` +
          `then restart the worker pool; wait ${s * 7 + n} s — “ack” each page. `.repeat(14),
      })),
    });
    const items = Array.from({ length: 40 }, (_, n) => item(n, 2));
    expect(DEFLATE_THREAD_FROM_UNITS).toBeLessThan(JSON.stringify(items.map((i) => i.chunks)).length);
    expect(JSON.stringify({ chunks: item(0, 1).chunks }).length).toBeLessThan(DEFLATE_THREAD_FROM_UNITS);
    expect(
      await store.commit(
        'memory',
        0,
        { position: 1, version: 1 },
        items.map((doc) => ({ op: 'put', collection: 'items', doc })),
      ),
    ).toBe(true);
    expect(
      await store.commit('memory', 1, { position: 2, version: 1 }, [
        { op: 'put', collection: 'items', doc: { ...item(40, 1), id: 'single' } },
      ]),
    ).toBe(true);
    const rows = db
      .prepare(`SELECT id, packed FROM read_documents WHERE collection = 'items' ORDER BY rowid`)
      .all() as Array<{ id: string; packed: Buffer }>;
    expect(rows.map((row) => row.id)).toEqual([...items.map((i) => i.id), 'single']);
    for (const [n, row] of rows.entries()) {
      const chunks = n < items.length ? items[n].chunks : item(40, 1).chunks;
      expect(row.packed.equals(deflateText(JSON.stringify({ chunks }), PACKED_DEFLATE_LEVEL))).toBe(true);
      expect(JSON.parse(inflateRawSync(row.packed).toString('utf8'))).toEqual({ chunks });
    }
    expect((await store.get('items', 'i39'))?.chunks).toEqual(items[39].chunks);
  });

  it('stores packed fields deflated apart from the JSONB row; refuses filtering, sorting or packing what cannot be', async () => {
    await store.ensureCollection('items', ['organization_id'], { packed: ['chunks'] });
    const text = (n: number) =>
      `Step ${n}: drain the queue, then restart the worker pool on each host. `.repeat(12);
    const item = {
      id: '7',
      organization_id: 'org',
      chunks: [1, 2, 3, 4].map((n) => ({ memory_chunk_id: n, text: text(n) })),
    };
    expect(
      await store.commit('memory', 0, { position: 1, version: 1 }, [
        { op: 'put', collection: 'items', doc: item },
      ]),
    ).toBe(true);
    const row = db
      .prepare(`SELECT json(doc) AS doc, packed, length(doc) AS docBytes FROM read_documents WHERE id = '7'`)
      .get() as { doc: string; packed: Buffer; docBytes: number };
    expect(JSON.parse(row.doc)).toEqual({ id: '7', organization_id: 'org', chunks: null });
    expect(Buffer.isBuffer(row.packed)).toBe(true);
    const plain = Buffer.byteLength(JSON.stringify(item.chunks));
    expect(row.packed.length).toBeLessThan(plain / 4);
    expect(JSON.parse(inflateRawSync(row.packed).toString('utf8'))).toEqual({ chunks: item.chunks });
    expect((await store.getMany('items', ['7'], { packed: false })).get('7')).toEqual({
      ...item,
      chunks: null,
    });
    await expect(store.find('items', { filter: { chunks: null } })).rejects.toThrow(/chunks is packed/);
    await expect(store.find('items', { filter: { $or: [{ chunks: { $ne: null } }] } })).rejects.toThrow(
      /packed/,
    );
    await expect(store.find('items', { sort: [{ field: 'chunks', direction: 'asc' }] })).rejects.toThrow(
      /packed/,
    );
    for (const packed of [['id'], ['organization_id'], ['__proto__'], ['bad-name']]) {
      await expect(store.ensureCollection('other', ['organization_id'], { packed })).rejects.toThrow();
    }
  });

  it('reads rows written before packed fields (no packed column), and adds the column to such a file', async () => {
    const path = join(tmp.dir, 'old.db');
    const old = openSqlite({ path });
    old.exec(`CREATE TABLE read_documents (collection TEXT NOT NULL, id TEXT NOT NULL, doc BLOB NOT NULL,
      PRIMARY KEY (collection, id));
      INSERT INTO read_documents VALUES ('items', '1', jsonb('{"id":"1","chunks":[{"text":"old"}],"n":1}'));`);
    const reopened = new SqliteReadStore(old);
    await reopened.ensureCollection('items', [], { packed: ['chunks'] });
    expect(await reopened.get('items', '1')).toEqual({ id: '1', chunks: [{ text: 'old' }], n: 1 });
    expect((await reopened.find('items', {})).items).toEqual([{ id: '1', chunks: [{ text: 'old' }], n: 1 }]);
    const columns = old.prepare(`SELECT name FROM pragma_table_xinfo('read_documents')`).pluck().all();
    expect(columns).toContain('packed');
    old.close();
  });
});

/** Real child processes on the same file (compiled adapter from dist/: `npm run build` first). */
describe('SqliteReadStore across processes', () => {
  const CHILD = join(__dirname, '..', 'support', 'read-store-child.js');
  const COMPILED = join(
    __dirname,
    '..',
    '..',
    'dist',
    'infrastructure',
    'read-store',
    'sqlite',
    'sqlite-read-store.js',
  );
  const children = new Set<ChildProcess>();
  let tmp: ReturnType<typeof makeTempDir>;
  let dbPath: string;

  function runChild<T>(args: string[], timeoutMs = 25_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const child = spawn(process.execPath, [CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      children.add(child);
      let out = '';
      let err = '';
      child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('error', reject);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        children.delete(child);
        if (code === 0) resolve(JSON.parse(out) as T);
        else reject(new Error(`child ${args[0]} exited with ${code ?? signal}: ${err}`));
      });
    });
  }

  beforeAll(() => {
    if (!existsSync(COMPILED)) throw new Error(`${COMPILED} is missing: run \`npm run build\` first`);
  });
  beforeEach(() => {
    tmp = makeTempDir('cairn-read-store-mp-');
    dbPath = join(tmp.dir, 'cairn.db');
    const db = openSqlite({ path: dbPath });
    new SqliteReadStore(db); // schema before the children race
    db.exec('CREATE TABLE lease_witness (owner TEXT PRIMARY KEY)');
    db.close();
  });
  afterEach(() => {
    for (const child of children) child.kill('SIGKILL');
    children.clear();
    tmp.cleanup();
  });

  it('hands out unique, consecutive ids to concurrent processes', async () => {
    const startAt = Date.now() + 1_000;
    const results = await Promise.all(
      [1, 2, 3, 4].map(() =>
        runChild<Array<[number, number]>>(['reserve', dbPath, 'orders', String(startAt), '250']),
      ),
    );
    const reserved = results
      .flat()
      .flatMap(([first, count]) => Array.from({ length: count }, (_, k) => first + k));
    const total = results.flat().reduce((sum, [, count]) => sum + count, 0);
    expect(reserved.sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    const db = openSqlite({ path: dbPath });
    try {
      expect(await new SqliteReadStore(db).reserveIds('orders', 1)).toBe(total + 1);
    } finally {
      db.close();
    }
  });

  it('lets only one process hold a lease at a time', async () => {
    const startAt = Date.now() + 1_000;
    const results = await Promise.all(
      ['A', 'B'].map((owner) =>
        runChild<{ acquisitions: number; violations: number }>([
          'lease',
          dbPath,
          'projector',
          owner,
          String(startAt),
          '1500',
        ]),
      ),
    );
    expect(results.map((r) => r.violations)).toEqual([0, 0]);
    for (const r of results) expect(r.acquisitions).toBeGreaterThan(0);
  });

  it('keeps a crashed process lease until it expires', async () => {
    expect(await runChild(['grab', dbPath, 'projector', 'crashed', '400'])).toEqual({ acquired: true });
    const db = openSqlite({ path: dbPath });
    try {
      const store = new SqliteReadStore(db);
      expect(await store.acquireLease('projector', 'me', 10_000)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 450));
      expect(await store.acquireLease('projector', 'me', 10_000)).toBe(true);
    } finally {
      db.close();
    }
  });
});
