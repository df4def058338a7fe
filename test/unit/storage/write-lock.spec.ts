import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { WriteLock } from '../../../src/infrastructure/sqlite/write-lock';
import { makeTempDir } from '../../support/temp-dir';

/** Another thread's connection takes the write lock, says so, keeps it `holdMs`, then commits. */
function holdLockInAnotherThread(path: string, holdMs: number): { held: Promise<void>; done: Promise<void> } {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const Database = require(workerData.driver);
     const db = new Database(workerData.path);
     db.exec('BEGIN IMMEDIATE');
     db.prepare('INSERT INTO t (who) VALUES (?)').run('other');
     parentPort.postMessage('held');
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
     db.exec('COMMIT');
     db.close();`,
    { eval: true, workerData: { driver: require.resolve('better-sqlite3'), path, holdMs } },
  );
  const held = new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  const done = new Promise<void>((resolve, reject) => {
    worker.once('exit', () => resolve());
    worker.once('error', reject);
  });
  return { held, done };
}

describe('WriteLock (taking the write lock another connection holds, in short naps)', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let path: string;
  let db: SqliteDatabase;
  const busyTimeout = (): number => Number(db.pragma('busy_timeout', { simple: true }));

  beforeEach(() => {
    temp = makeTempDir('cairn-write-lock-');
    path = join(temp.dir, 'lock.sqlite');
    db = openSqlite({ path, busyTimeoutMs: 2000 });
    db.exec('CREATE TABLE t (who TEXT NOT NULL)');
  });

  afterEach(() => {
    db.close();
    temp.cleanup();
  });

  it('waits while another connection holds the lock and writes once it is released', async () => {
    const lock = new WriteLock(db);
    const insert = db.transaction(() => db.prepare('INSERT INTO t (who) VALUES (?)').run('me'));
    const other = holdLockInAnotherThread(path, 150);
    await other.held;
    let attempts = 0;
    const started = performance.now();
    lock.run(() => {
      attempts += 1;
      return insert.immediate();
    });
    const waited = performance.now() - started;
    await other.done;
    expect(waited).toBeGreaterThanOrEqual(100);
    expect(attempts).toBeGreaterThan(1);
    // Both writes landed, the other thread's first.
    expect(db.prepare('SELECT who FROM t ORDER BY rowid').pluck().all()).toEqual(['other', 'me']);
    expect(busyTimeout()).toBe(2000);
  });

  it("gives up with SQLITE_BUSY once the connection's busy timeout has passed, and restores it", () => {
    db.pragma('busy_timeout = 150');
    const lock = new WriteLock(db);
    const holder = openSqlite({ path });
    try {
      holder.exec('BEGIN IMMEDIATE');
      const insert = db.prepare('INSERT INTO t (who) VALUES (?)');
      const started = performance.now();
      expect(() => lock.run(() => insert.run('me'))).toThrow(
        expect.objectContaining({ code: 'SQLITE_BUSY' }) as unknown as Error,
      );
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(140);
      expect(waited).toBeLessThan(1000);
      expect(busyTimeout()).toBe(150);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('passes any other error through at once, without retrying', () => {
    const lock = new WriteLock(db);
    let attempts = 0;
    expect(() =>
      lock.run(() => {
        attempts += 1;
        throw new Error('not a lock problem');
      }),
    ).toThrow('not a lock problem');
    expect(attempts).toBe(1);
    expect(busyTimeout()).toBe(2000);
  });
});
