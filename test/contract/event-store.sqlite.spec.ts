import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { decodeMetadata } from '../../src/infrastructure/event-store/sqlite/event-metadata';
import { openSqlite, type SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';
import { makeTempDir } from '../support/temp-dir';
import { describeEventStoreContract } from './event-store.contract';
import { verifyChain } from '../../src/infrastructure/event-store/hash-chain';
import { LogChainVerifier } from '../../src/infrastructure/event-store/log-chain';
import { WrongExpectedVersionError } from '../../src/infrastructure/event-store/wrong-expected-version.error';
import { Collector, newEvent, newEvents, sleep } from './event-store.contract-support';

describeEventStoreContract('SQLite', async () => {
  const temp = makeTempDir('cairn-es-contract-');
  const db = openSqlite({ path: join(temp.dir, 'cairn.db') });
  const store = new SqliteEventStore(db);
  return {
    store,
    cleanup: async () => {
      await store.close();
      db.close();
      temp.cleanup();
    },
  };
});

/**
 * Runs `append` on `store` with `another` (another writer's append) run right before the store takes its write
 * lock, after it chained its batch: a writer of another process landing in between.
 */
async function appendAfterAnother<T>(
  store: SqliteEventStore,
  another: () => void,
  append: () => Promise<T>,
): Promise<T> {
  const internals = store as unknown as { appendTransaction: (...args: unknown[]) => unknown };
  const locked = internals.appendTransaction;
  internals.appendTransaction = (...args: unknown[]) => {
    another();
    return locked(...args);
  };
  try {
    return await append();
  } finally {
    internals.appendTransaction = locked;
  }
}

describe('SqliteEventStore specifics', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let dbPath: string;
  const open: Array<{ db: SqliteDatabase; store: SqliteEventStore }> = [];
  const openStore = (pollIntervalMs?: number): SqliteEventStore => {
    const db = openSqlite({ path: dbPath });
    const store = new SqliteEventStore(db, { pollIntervalMs });
    open.push({ db, store });
    return store;
  };
  beforeEach(() => {
    temp = makeTempDir('cairn-es-sqlite-');
    dbPath = join(temp.dir, 'cairn.db');
  });
  afterEach(async () => {
    for (const { db, store } of open.splice(0)) {
      await store.close();
      db.close();
    }
    temp.cleanup();
  });

  it('rolls back the whole batch when an insert fails midway', async () => {
    const store = openStore();
    await store.append('s', [newEvent('First')], 'no_stream');
    // The file refuses the batch's second row (a full disk or an I/O error would fail it the same way).
    open[0].db.exec(
      `CREATE TRIGGER refuse_clash BEFORE INSERT ON events WHEN NEW.type = 'Clash'
         BEGIN SELECT RAISE(ABORT, 'refused by the file'); END`,
    );
    const batch = [newEvent('Fine'), newEvent('Clash'), newEvent('Fine')];
    // toMatchObject, not toThrow: better-sqlite3's native addon keeps the SqliteError class of the first jest
    // context of this worker, so in later test files it is not `instanceof Error` and toThrow would misreport.
    await expect(store.append('s', batch, 0)).rejects.toMatchObject({
      message: expect.stringMatching(/refused by the file/),
    });
    expect((await store.readStream('s')).map((e) => e.type)).toEqual(['First']);
    expect(await store.readAll()).toHaveLength(1);
    // Nothing of it is left half-applied: the next append continues at revision 1, after the kept head.
    await store.append('s', [newEvent('Next')], 0);
    expect((await store.readStream('s')).map((e) => [e.type, e.revision])).toEqual([
      ['First', 0],
      ['Next', 1],
    ]);
  });

  it("a new file's append to an existing stream writes two pages to the WAL, plus the page splits", async () => {
    // What a durable append syncs: each page its commit dirtied, 16 KiB each. The table's page and the
    // (stream, revision) index's; no sqlite_sequence page (AUTOINCREMENT) and no event_id index page.
    const db = openSqlite({ path: dbPath, synchronous: 'NORMAL' });
    const store = new SqliteEventStore(db);
    open.push({ db, store });
    db.pragma('wal_autocheckpoint = 0');
    const streams = Array.from({ length: 50 }, (_, n) => `orders-${n}`);
    for (const stream of streams) await store.append(stream, [newEvent('Opened', { stream })], 'no_stream');
    db.pragma('wal_checkpoint(TRUNCATE)');
    const appends = 400;
    for (let n = 0; n < appends; n++) {
      const stream = streams[(n * 7) % streams.length];
      await store.append(stream, [newEvent('Changed', { n, note: 'x'.repeat(200) })], 'any');
    }
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    const frames = (statSync(`${dbPath}-wal`).size - 32) / (pageSize + 24);
    expect(frames / appends).toBeGreaterThanOrEqual(2);
    expect(frames / appends).toBeLessThan(2.5);
  });

  it('an edit made directly in the events table breaks the chain for auditors', async () => {
    const store = openStore();
    await store.append('audited', newEvents('E', 3), 'no_stream');
    expect(verifyChain(await store.readStream('audited'))).toBeNull();
    const db = open[0].db;
    db.prepare(`UPDATE events SET data = '{"n":99}' WHERE stream = 'audited' AND revision = 1`).run();
    expect(verifyChain(await store.readStream('audited'))).toMatchObject({
      revision: 1,
      reason: 'hash_mismatch',
    });
  });

  it('re-hashes a batch hashed before the write lock when another writer appended in between', async () => {
    const mine = openStore();
    const other = openStore();
    await mine.append('raced', [newEvent('First')], 'no_stream');
    // Another process appending between this store's read of the stream's last event (when it hashes the batch)
    // and its write lock: simulated right before the lock is taken.
    await appendAfterAnother(
      mine,
      () => void other.append('raced', [newEvent('Between')], 'any'),
      () => mine.append('raced', [newEvent('Mine')], 'any'),
    );
    const events = await mine.readStream('raced');
    expect(events.map((event) => [event.type, event.revision])).toEqual([
      ['First', 0],
      ['Between', 1],
      ['Mine', 2],
    ]);
    expect(verifyChain(events)).toBeNull();
    // Expecting the last revision as it was before the other writer appended again: a conflict, nothing of
    // this store's written.
    await expect(
      appendAfterAnother(
        mine,
        () => void other.append('raced', [newEvent('Between')], 'any'),
        () => mine.append('raced', [newEvent('Stale')], 2),
      ),
    ).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect((await mine.readStream('raced')).map((event) => event.type)).toEqual([
      'First',
      'Between',
      'Mine',
      'Between',
    ]);
  });

  it('links into the log chain after the last event when another writer appended to another stream before the write lock', async () => {
    const mine = openStore();
    const other = openStore();
    await mine.append('mine', [newEvent('First')], 'no_stream');
    // The batch is chained outside the lock; another process then appends to another stream (the stream's own
    // chain still holds, the log's last event moved).
    await appendAfterAnother(
      mine,
      () => void other.append('theirs', [newEvent('Between')], 'no_stream'),
      () => mine.append('mine', [newEvent('Second'), newEvent('Third')], 0),
    );
    await mine.append('mine', [newEvent('Fourth')], 2);
    const log = await mine.readAll();
    expect(log.map((event) => event.type)).toEqual(['First', 'Between', 'Second', 'Third', 'Fourth']);
    const verifier = new LogChainVerifier();
    expect(log.every((event) => verifier.add(event, event.metadata.hash))).toBe(true);
    expect(verifier.result()).toMatchObject({
      first_break: null,
      head: { position: log[4].position, events: 5 },
    });
    expect(log[2].metadata.global_prev_hash).toBe(log[1].metadata.global_hash);
  });

  it('stores the log link in 32-byte columns and reads it back as hex, last in the metadata', async () => {
    const store = openStore();
    await store.append('s', [newEvent('A'), newEvent('B')], 'no_stream');
    await store.append('t', [newEvent('C')], 'no_stream');
    const rows = open[0].db
      .prepare('SELECT metadata, global_prev_hash, global_hash FROM events ORDER BY position')
      .raw(true)
      .all() as Array<[string | Buffer, Buffer, Buffer]>;
    const log = await store.readAll();
    rows.forEach(([metadata, prev, hash], n) => {
      // The metadata column is the metadata alone: the link is not stored twice.
      expect(Object.keys(decodeMetadata(metadata))).not.toContain('global_hash');
      expect([prev.length, hash.length]).toEqual([32, 32]);
      expect(log[n].metadata.global_prev_hash).toBe(prev.toString('hex'));
      expect(log[n].metadata.global_hash).toBe(hash.toString('hex'));
      expect(Object.keys(log[n].metadata).slice(-2)).toEqual(['global_prev_hash', 'global_hash']);
    });
    expect(log[0].metadata.global_prev_hash).toBe('0'.repeat(64));
    expect(log[2].metadata.global_prev_hash).toBe(log[1].metadata.global_hash);
    const verifier = new LogChainVerifier();
    expect(log.every((event) => verifier.add(event, event.metadata.hash))).toBe(true);
  });

  it('continues the log chain of a file written before the link had columns', async () => {
    // A file as the previous schema wrote it: the link as hex in the metadata JSON, no link columns.
    const legacy = openSqlite({ path: dbPath });
    legacy.exec(`CREATE TABLE events (
      position INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT UNIQUE NOT NULL, stream TEXT NOT NULL,
      revision INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL,
      UNIQUE (stream, revision))`);
    legacy.close();
    const first = openStore();
    await first.append('old', [newEvent('Old')], 'no_stream');
    // Rewrite the row as the old schema stored it: link in the JSON, columns empty.
    const [written] = await first.readAll();
    open[0].db
      .prepare(
        'UPDATE events SET metadata = ?, global_prev_hash = NULL, global_hash = NULL WHERE position = ?',
      )
      .run(JSON.stringify(written.metadata), written.position);
    await first.append('new', [newEvent('New')], 'no_stream');
    const log = await openStore().readAll();
    expect(log.map((event) => event.type)).toEqual(['Old', 'New']);
    expect(log[0].metadata.global_hash).toBe(written.metadata.global_hash);
    expect(log[1].metadata.global_prev_hash).toBe(written.metadata.global_hash);
    const verifier = new LogChainVerifier();
    expect(log.every((event) => verifier.add(event, event.metadata.hash))).toBe(true);
  });

  it('wakes its own subscriptions at once, without waiting for the poll interval', async () => {
    const store = openStore(60_000);
    const sub = new Collector('').subscribe(store, 0);
    await sleep(50);
    const started = Date.now();
    await store.append('s', [newEvent('Now')], 'no_stream');
    await sub.waitForCount(1);
    expect(Date.now() - started).toBeLessThan(1_000);
    await sub.stop();
  });

  it('sees events appended through another connection to the same file', async () => {
    const reader = openStore(10);
    const writer = openStore();
    const sub = new Collector('').subscribe(reader, 0);
    await writer.append('other-connection', newEvents('E', 3), 'no_stream');
    await sub.waitForCount(3);
    expect(sub.events.map((e) => e.revision)).toEqual([0, 1, 2]);
    await sub.stop();
  });

  describe('with other processes', () => {
    const script = join(__dirname, '..', 'support', 'event-store-race-child.js');
    const children: Child[] = [];
    beforeAll(() => {
      const built = join(
        __dirname,
        '..',
        '..',
        'dist',
        'infrastructure',
        'event-store',
        'sqlite',
        'sqlite-event-store.js',
      );
      if (!existsSync(built))
        throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
    });
    afterEach(async () => {
      await Promise.all(children.splice(0).map((child) => child.end()));
    });
    const spawnChildren = async (count: number): Promise<Child[]> => {
      const started = await Promise.all(
        Array.from({ length: count }, (_, i) => Child.start(script, dbPath, `child-${i}`)),
      );
      children.push(...started);
      return started;
    };

    it('exactly one of several processes wins each round on the same stream; no gap, valid chain', async () => {
      openStore(); // creates the schema before the children race for it
      const racers = await spawnChildren(3);
      const rounds = 200;
      for (let round = 0; round < rounds; round++) {
        const replies = await Promise.all(
          racers.map((child) => child.request({ cmd: 'race', stream: 'raced', round })),
        );
        const winners = replies.filter((reply) => reply.ok === true);
        expect({ round, winners: winners.length }).toEqual({ round, winners: 1 });
        for (const loser of replies.filter((reply) => reply.ok === false)) expect(loser.actual).toBe(round);
      }
      const events = await open[0].store.readStream('raced');
      expect(events.map((e) => e.revision)).toEqual(Array.from({ length: rounds }, (_, i) => i));
      expect(events.map((e) => e.data.round)).toEqual(Array.from({ length: rounds }, (_, i) => i));
      expect(verifyChain(events)).toBeNull();
    }, 120_000);

    it('a subscription in this process sees events appended by another process', async () => {
      const store = openStore();
      const sub = new Collector('from-child').subscribe(store, await store.headPosition());
      const [child] = await spawnChildren(1);
      const reply = await child.request({ cmd: 'append', stream: 'from-child', count: 5 });
      expect(reply.ok).toBe(true);
      await sub.waitForCount(5);
      const delivered: RecordedEvent[] = sub.events;
      expect(delivered.map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
      expect(delivered.every((e) => e.data.pid !== process.pid)).toBe(true);
      await sub.stop();
    });
  });
});

interface Reply {
  id: number;
  ok?: boolean;
  actual?: number | null;
  error?: string;
}

/** One child process driven over IPC; end() always leaves it exited. */
class Child {
  private nextId = 0;
  private readonly pending = new Map<number, (reply: Reply) => void>();
  private readonly exited: Promise<void>;

  private constructor(private readonly proc: ChildProcess) {
    this.exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    proc.on('message', (message: Reply) => this.pending.get(message.id)?.(message));
  }

  static async start(script: string, dbPath: string, name: string): Promise<Child> {
    const child = new Child(fork(script, [dbPath, name], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    await new Promise<void>((resolve, reject) => {
      child.proc.once('message', () => resolve());
      child.proc.once('exit', (code) => reject(new Error(`${name} exited early with code ${code}`)));
    });
    return child;
  }

  async request(message: Record<string, unknown>): Promise<Reply> {
    const id = this.nextId++;
    const reply = await new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, resolve);
      this.exited.then(() => reject(new Error('child exited before replying')));
      this.proc.send({ ...message, id });
    });
    this.pending.delete(id);
    if (reply.error) throw new Error(`child failed: ${reply.error}`);
    return reply;
  }

  async end(): Promise<void> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) {
      if (this.proc.connected) this.proc.send({ cmd: 'exit' });
      const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5_000);
      await this.exited;
      clearTimeout(timer);
    }
  }
}
