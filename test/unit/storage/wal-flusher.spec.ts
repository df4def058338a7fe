import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  COMMITTED_SYNC_WITHIN_MS,
  SqliteEventStore,
} from '../../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { WalFlusher, walFlusherFor } from '../../../src/infrastructure/sqlite/wal-flusher';
import { metadata } from '../../contract/event-store.contract-support';

/** A sync the test completes by hand, counting how many were started. */
function manualSync() {
  const pending: Array<() => void> = [];
  let released = false;
  return {
    /** Completes every pending sync, and every later one at once. */
    release: () => {
      released = true;
      for (const finish of pending.splice(0)) finish();
    },
    started: () => pending.length,
    finishNext: async () => {
      pending.shift()?.();
      // Let the continuations (and a queued sync's start) run.
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
    sync: () => new Promise<void>((resolve) => (released ? resolve() : pending.push(resolve))),
    pending,
  };
}

describe('WalFlusher (group commit of the embedded event store)', () => {
  describe('flushWithin (a sync promised within a time, nobody waiting)', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('starts one sync when the time is up, for every call in the window', async () => {
      const manual = manualSync();
      const flusher = new WalFlusher(manual.sync);
      const errors: unknown[] = [];
      flusher.flushWithin(100, (error) => errors.push(error));
      await jest.advanceTimersByTimeAsync(60);
      flusher.flushWithin(100, (error) => errors.push(error));
      expect(manual.started()).toBe(0);
      await jest.advanceTimersByTimeAsync(40);
      expect(manual.started()).toBe(1);
      await manual.finishNext();
      await jest.advanceTimersByTimeAsync(500);
      expect(manual.started()).toBe(0);
      expect(errors).toEqual([]);
    });

    it('a sync that starts anyway keeps the promise: no second sync for it', async () => {
      const manual = manualSync();
      const flusher = new WalFlusher(manual.sync);
      flusher.flushWithin(100, () => undefined);
      const waited = flusher.flush();
      await jest.advanceTimersByTimeAsync(0);
      expect(manual.started()).toBe(1);
      await manual.finishNext();
      await waited;
      await jest.advanceTimersByTimeAsync(500);
      expect(manual.started()).toBe(0);
    });

    it('reports a failed sync to its callback', async () => {
      const flusher = new WalFlusher(() => Promise.reject(new Error('EIO')));
      const errors: unknown[] = [];
      flusher.flushWithin(10, (error) => errors.push(error));
      await jest.advanceTimersByTimeAsync(10);
      expect(errors.map(String)).toEqual(['Error: EIO']);
    });

    it('does nothing while relaxed (bulk writes sync when they end)', async () => {
      const manual = manualSync();
      const flusher = new WalFlusher(manual.sync);
      const relaxed = flusher.relax();
      flusher.flushWithin(10, () => undefined);
      await jest.advanceTimersByTimeAsync(50);
      expect(manual.started()).toBe(0);
      relaxed.end();
    });
  });

  it('shares one sync among callers that arrive while none runs', async () => {
    const manual = manualSync();
    const flusher = new WalFlusher(manual.sync);
    const done: number[] = [];
    const a = flusher.flush().then(() => done.push(1));
    const b = flusher.flush().then(() => done.push(2));
    await Promise.resolve();
    expect(manual.started()).toBe(1);
    await manual.finishNext();
    await Promise.all([a, b]);
    expect(done.sort()).toEqual([1, 2]);
  });

  it('makes a caller that arrives during a sync wait for a new sync, shared by all such callers', async () => {
    const manual = manualSync();
    const flusher = new WalFlusher(manual.sync);
    let firstDone = false;
    void flusher.flush().then(() => (firstDone = true));
    await Promise.resolve();
    expect(manual.started()).toBe(1);
    // The sync under way may have started before these callers' commits: they wait for the next one.
    const late1 = flusher.flush();
    const late2 = flusher.flush();
    expect(late2).toBe(late1);
    let lateDone = false;
    void late1.then(() => (lateDone = true));
    await manual.finishNext();
    expect(firstDone).toBe(true);
    expect(lateDone).toBe(false);
    expect(manual.started()).toBe(1);
    await manual.finishNext();
    expect(lateDone).toBe(true);
    expect(manual.pending).toHaveLength(0);
  });

  it('passes a failed sync on to its callers, and the next flush syncs again', async () => {
    let calls = 0;
    const flusher = new WalFlusher(async () => {
      calls++;
      if (calls === 1) throw new Error('EIO');
    });
    await expect(flusher.flush()).rejects.toThrow('EIO');
    await expect(flusher.flush()).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });

  it('does not wait while relaxed (bulk writes) and syncs once when the relaxation ends', async () => {
    let syncs = 0;
    let syncsNow = 0;
    const flusher = new WalFlusher(
      async () => void syncs++,
      () => void syncsNow++,
    );
    const bulk = flusher.relax();
    await flusher.flush();
    expect(syncs).toBe(0);
    bulk.end();
    bulk.end();
    expect(syncsNow).toBe(1);
    await flusher.flush();
    expect(syncs).toBe(1);
  });

  it('acknowledges an event store append only after a WAL sync that started after its commit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-wal-'));
    const path = join(dir, 'events.sqlite');
    const db = openSqlite({ path, synchronous: 'NORMAL' });
    const wal = walFlusherFor(path);
    const manual = manualSync();
    const order: string[] = [];
    const flusher = new WalFlusher(async () => {
      order.push('sync started');
      await manual.sync();
      await wal.flusher.flush(); // the real fdatasync of the WAL file, so the path is exercised too
      order.push('sync done');
    });
    const store = new SqliteEventStore(db, { flusher });
    try {
      const appended = store
        .append('wal-test-1', [{ type: 'Noted', data: { n: 1 }, metadata: metadata() }], 'no_stream')
        .then(() => order.push('acknowledged'));
      for (let i = 0; i < 3; i++) await Promise.resolve();
      // Committed (readable) but not acknowledged before the sync completes.
      expect((await store.readStream('wal-test-1')).map((e) => e.revision)).toEqual([0]);
      expect(order).toEqual(['sync started']);
      manual.pending.shift()?.();
      await appended;
      expect(order).toEqual(['sync started', 'sync done', 'acknowledged']);

      // `committed` durability (recall traces): acknowledged at once; a sync starts within
      // COMMITTED_SYNC_WITHIN_MS, shared by every such append in the window.
      order.length = 0;
      const committedAt = performance.now();
      for (const n of [2, 3]) {
        await store.append(
          `wal-test-${n}`,
          [{ type: 'Noted', data: { n }, metadata: metadata() }],
          'no_stream',
          {
            durability: 'committed',
          },
        );
      }
      expect(order).toEqual([]);
      while (!order.includes('sync started')) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(performance.now() - committedAt).toBeGreaterThanOrEqual(COMMITTED_SYNC_WITHIN_MS - 5);
      expect(performance.now() - committedAt).toBeLessThan(COMMITTED_SYNC_WITHIN_MS + 500);
      expect(manual.pending).toHaveLength(1);
      manual.pending.shift()?.();
      while (!order.includes('sync done')) await new Promise((resolve) => setImmediate(resolve));
      expect(order).toEqual(['sync started', 'sync done']);
    } finally {
      manual.release();
      await store.close();
      wal.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
