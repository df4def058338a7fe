import Database from 'better-sqlite3';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/config';
import { openSqlite } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { openStores, sqliteFile } from '../../../src/infrastructure/stores';
import { makeTempDir } from '../../support/temp-dir';

/**
 * A new embedded file gives the pages a bulk run freed back to the file system (auto_vacuum INCREMENTAL,
 * Stores.compact, called at the end of memory:ingest); a file created before keeps
 * auto_vacuum NONE, and compact then releases nothing and changes nothing.
 */
describe('Stores.compact: free pages back to the file system', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());

  /** Writes ~4 MB in a scratch table of the shared file, deletes it, and returns the free pages left. */
  function churn(path: string): number {
    const db = openSqlite({ path });
    db.exec('CREATE TABLE IF NOT EXISTS scratch (id INTEGER PRIMARY KEY, body BLOB)');
    const insert = db.prepare('INSERT INTO scratch (body) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 1000; i++) insert.run(Buffer.alloc(4000, i % 251));
    })();
    db.exec('DELETE FROM scratch');
    db.pragma('wal_checkpoint(TRUNCATE)');
    const free = Number(db.pragma('freelist_count', { simple: true }));
    db.close();
    return free;
  }

  it('a new file: the freed pages are released and the file shrinks', async () => {
    const dir = join(temp.dir, 'new');
    const stores = await openStores(loadConfig({ CAIRN_DATA_DIR: dir }));
    const path = sqliteFile(dir);
    const free = churn(path);
    expect(free).toBeGreaterThan(200);
    const before = statSync(path).size;
    expect(stores.compact?.()).toBe(free);
    stores.checkpoint?.();
    const db = openSqlite({ path, readonly: true });
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    db.close();
    expect(statSync(path).size).toBeLessThan(before - free * 16384 * 0.9);
    expect(stores.compact?.()).toBe(0);
    await stores.close();
  });

  it('a file created without auto_vacuum keeps its free pages (reused by later writes) and still opens', async () => {
    const dir = join(temp.dir, 'old');
    const path = sqliteFile(dir);
    mkdirSync(dir, { recursive: true });
    // As an earlier build created it: auto_vacuum NONE (better-sqlite3 directly, as openSqlite did before).
    const raw = new Database(path);
    raw.pragma('page_size = 16384');
    raw.pragma('journal_mode = WAL');
    raw.exec('CREATE TABLE marker (x)');
    raw.close();
    const stores = await openStores(loadConfig({ CAIRN_DATA_DIR: dir }));
    const free = churn(path);
    expect(free).toBeGreaterThan(200);
    expect(stores.compact?.()).toBe(0);
    const db = openSqlite({ path, readonly: true });
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(0);
    expect(db.pragma('freelist_count', { simple: true })).toBe(free);
    db.close();
    await stores.close();
  });
});
