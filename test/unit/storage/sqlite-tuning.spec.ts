import { join } from 'node:path';
import { loadConfig } from '../../../src/config/config';
import * as connection from '../../../src/infrastructure/sqlite/sqlite-connection';
import { openStores, serverStoreOptions, SHARED_FILE_CACHE_KIB } from '../../../src/infrastructure/stores';
import { makeTempDir } from '../../support/temp-dir';

/**
 * A server process alone keeps SQLite's memory map and large page cache; a server process among several workers
 * opens the shared file without the map and with a small cache (stores.ts serverStoreOptions says why).
 */
describe('how server processes open the embedded file', () => {
  it('keeps the defaults for one process and drops the map, with a small cache, for several', () => {
    expect(serverStoreOptions(1)).toEqual({});
    for (const workers of [2, 16]) {
      expect(serverStoreOptions(workers)).toEqual({
        sqliteMmapBytes: 0,
        sqliteCacheKiB: SHARED_FILE_CACHE_KIB,
      });
    }
    expect(SHARED_FILE_CACHE_KIB).toBe(2048);
  });

  it('applies the map and cache size to the connection', () => {
    const temp = makeTempDir();
    try {
      const defaults = connection.openSqlite({ path: join(temp.dir, 'a.sqlite') });
      expect(defaults.pragma('cache_size', { simple: true })).toBe(-connection.PAGE_CACHE_KIB);
      expect(defaults.pragma('mmap_size', { simple: true })).toBeGreaterThan(0);
      defaults.close();
      const shared = connection.openSqlite({
        path: join(temp.dir, 'a.sqlite'),
        mmapBytes: 0,
        cacheKiB: 2048,
      });
      expect(shared.pragma('cache_size', { simple: true })).toBe(-2048);
      expect(shared.pragma('mmap_size', { simple: true })).toBe(0);
      shared.close();
    } finally {
      temp.cleanup();
    }
  });

  it('opens the stores with the options a server process is given', async () => {
    const temp = makeTempDir();
    const open = jest.spyOn(connection, 'openSqlite');
    try {
      const config = loadConfig({ CAIRN_DATA_DIR: temp.dir, CAIRN_HTTP_WORKERS: '2' });
      const stores = await openStores(config, serverStoreOptions(config.httpWorkers));
      await stores.close();
      // The shared file (the data-key store is a file of its own, opened with its own settings).
      const shared = () => open.mock.calls.filter(([options]) => options.path?.endsWith('cairn.sqlite'));
      expect(shared()).toHaveLength(1);
      expect(shared()[0][0]).toMatchObject({ mmapBytes: 0, cacheKiB: SHARED_FILE_CACHE_KIB });
      const single = await openStores(loadConfig({ CAIRN_DATA_DIR: temp.dir }), serverStoreOptions(1));
      await single.close();
      expect(shared()[1][0]).not.toHaveProperty('mmapBytes');
      expect(shared()[1][0]).not.toHaveProperty('cacheKiB');
    } finally {
      open.mockRestore();
      temp.cleanup();
    }
  });
});
