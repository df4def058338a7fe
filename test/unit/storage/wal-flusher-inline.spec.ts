import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { WalFlusher, walFlusherFor } from '../../../src/infrastructure/sqlite/wal-flusher';

/**
 * Where a sync runs: in the event loop's thread while the recent syncs were fast (no thread pool round trip), on
 * the thread pool once they average above the bound, and back when the disk is fast again.
 */
function timedDisk() {
  let clock = 0;
  const disk = {
    /** How long the next syncs take, in ms. */
    ms: 0.3,
    inline: 0,
    pooled: 0,
    failNext: false,
    now: () => clock,
    syncNow: () => {
      clock += disk.ms;
      if (disk.failNext) {
        disk.failNext = false;
        throw new Error('EIO');
      }
      disk.inline++;
    },
    sync: async () => {
      clock += disk.ms;
      disk.pooled++;
    },
  };
  return disk;
}

describe('WalFlusher: syncs in the event loop thread while the disk is fast', () => {
  it('runs syncs inline while they average at most the bound, on the pool above it, and inline again after', async () => {
    const disk = timedDisk();
    const flusher = new WalFlusher(disk.sync, disk.syncNow, { inlineUpToMs: 1, now: disk.now });
    for (let i = 0; i < 5; i++) await flusher.flush();
    expect([disk.inline, disk.pooled]).toEqual([5, 0]);
    // The disk slows down: the first slow sync is inline (it could not be known), the ones after go to the pool.
    disk.ms = 40;
    for (let i = 0; i < 5; i++) await flusher.flush();
    expect([disk.inline, disk.pooled]).toEqual([6, 4]);
    expect(flusher.nextSyncRuns).toBe('pool');
    // Fast again: once the average is back under the bound, inline again.
    disk.ms = 0.2;
    let pooled = 0;
    while (flusher.nextSyncRuns === 'pool' && pooled < 100) {
      await flusher.flush();
      pooled++;
    }
    expect(pooled).toBeGreaterThan(5);
    expect(pooled).toBeLessThan(100);
    const before = disk.inline;
    await flusher.flush();
    expect(disk.inline).toBe(before + 1);
  });

  it('shares one inline sync among the callers of one turn, and waits for a pooled one under way', async () => {
    const disk = timedDisk();
    const flusher = new WalFlusher(disk.sync, disk.syncNow, { inlineUpToMs: 1, now: disk.now });
    await Promise.all([flusher.flush(), flusher.flush(), flusher.flush()]);
    expect(disk.inline).toBe(1);
    // Not started in the caller's own call: commits later in the same turn are covered by the same sync.
    const pending = flusher.flush();
    expect(disk.inline).toBe(1);
    await pending;
    expect(disk.inline).toBe(2);
  });

  it('rejects the callers of a failed inline sync, and the next flush syncs again', async () => {
    const disk = timedDisk();
    const flusher = new WalFlusher(disk.sync, disk.syncNow, { inlineUpToMs: 1, now: disk.now });
    disk.failNext = true;
    await expect(Promise.all([flusher.flush(), flusher.flush()])).rejects.toThrow('EIO');
    await expect(flusher.flush()).resolves.toBeUndefined();
    expect(disk.inline).toBe(1);
  });

  it('without the option, every sync is on the pool; walFlusherFor syncs inline on a fast disk', async () => {
    const disk = timedDisk();
    const pooled = new WalFlusher(disk.sync, disk.syncNow);
    for (let i = 0; i < 3; i++) await pooled.flush();
    expect([disk.inline, disk.pooled]).toEqual([0, 3]);

    const dir = mkdtempSync(join(tmpdir(), 'cairn-wal-inline-'));
    const db = openSqlite({ path: join(dir, 'cairn.sqlite'), synchronous: 'NORMAL' });
    const wal = walFlusherFor(join(dir, 'cairn.sqlite'));
    try {
      db.exec('CREATE TABLE t (x)');
      expect(wal.flusher.nextSyncRuns).toBe('inline');
      db.prepare('INSERT INTO t VALUES (1)').run();
      await wal.flusher.flush();
    } finally {
      wal.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
