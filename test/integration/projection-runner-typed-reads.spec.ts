import type {
  EventStore,
  RecordedEvent,
  TypedReadOptions,
} from '../../src/infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { SqliteReadStore } from '../../src/infrastructure/read-store/sqlite/sqlite-read-store';
import { SqliteSearchIndex } from '../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite, type SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';
import type { Projection, ProjectionContext } from '../../src/projections/projection';
import { ProjectionRunner } from '../../src/projections/projection-runner';
import { makeTempDir } from '../support/temp-dir';
import { metadata } from '../contract/event-store.contract-support';

/** Counts its applications (not idempotent: a double apply shows), and remembers the positions it applied. */
function tickCounter(): Projection {
  return {
    name: 'ticks',
    version: 1,
    collections: [{ name: 'tick_counts', indexes: [] }],
    eventTypes: new Set(['Tick']),
    async apply(event: RecordedEvent, context: ProjectionContext) {
      const current = await context.get<{ id: string; n: number; at: number[] }>('tick_counts', 'all');
      context.put('tick_counts', {
        id: 'all',
        n: (current?.n ?? 0) + 1,
        at: [...(current?.at ?? []), event.position],
      });
    },
  };
}

const meta = () => metadata({ organization_id: null });

/** The store's reads as the runner makes them: how many events each kind of read handed over. */
function countingReads(store: SqliteEventStore, typed: boolean) {
  const seen = { all: 0, typed: 0, heads: 0 };
  const counted: EventStore = {
    append: (...args) => store.append(...args),
    readStream: (...args) => store.readStream(...args),
    readAll: async (options) => {
      const events = await store.readAll(options);
      seen.all += events.length;
      return events;
    },
    subscribeToAll: (options) => store.subscribeToAll(options),
    headPosition: () => {
      seen.heads += 1;
      return store.headPosition();
    },
    listStreams: () => store.listStreams(),
    ping: () => store.ping(),
    close: () => store.close(),
  };
  if (typed) {
    counted.readAllOfTypes = async (options: TypedReadOptions) => {
      const read = await store.readAllOfTypes(options);
      seen.typed += read.events.length;
      return read;
    };
  }
  return { counted, seen };
}

describe('projection runner: a projection behind reads only its own event types', () => {
  const temp = makeTempDir();
  const dbs: SqliteDatabase[] = [];
  const runners: ProjectionRunner[] = [];
  afterAll(async () => {
    for (const runner of runners) await runner.stop();
    for (const db of dbs) db.close();
    temp.cleanup();
  });

  /** 400 events of another type with a Tick at every 80th position: 5 ticks. */
  async function logWithRareTicks(file: string) {
    const db = openSqlite({ path: `${temp.dir}/${file}` });
    dbs.push(db);
    const store = new SqliteEventStore(db, { typedReadWindow: 64 });
    const ticks: number[] = [];
    for (let n = 1; n <= 400; n++) {
      const type = n % 80 === 0 ? 'Tick' : 'Noise';
      const { position } = await store.append(`s-${n}`, [{ type, data: { n }, metadata: meta() }], 'any');
      if (type === 'Tick') ticks.push(position);
    }
    return { db, store, ticks };
  }

  for (const typed of [true, false]) {
    it(
      typed
        ? 'catches up and rebuilds through typed reads: each tick applied once, the other events never handed over'
        : 'a store without typed reads: the same read model, every event read',
      async () => {
        const { db, store, ticks } = await logWithRareTicks(`rare-${typed}.sqlite`);
        const { counted, seen } = countingReads(store, typed);
        const reads = new SqliteReadStore(db);
        const runner = new ProjectionRunner(counted, reads, new SqliteSearchIndex(db), [tickCounter()], {
          owner: `typed-${typed}`,
          batchSize: 7,
          pollIntervalMs: 5,
        });
        runners.push(runner);
        await runner.prepare();
        runner.start();
        const head = await store.headPosition();
        expect(await runner.waitFor(head, 10_000)).toBe(true);
        expect(await reads.get('tick_counts', 'all')).toEqual({ id: 'all', n: 5, at: ticks });
        expect((await reads.getCheckpoint('ticks'))?.position).toBe(head);
        if (typed) {
          // The ticks came from typed reads; readAll only ever read within a batch of the head.
          expect(seen.typed).toBe(5);
          expect(seen.all).toBeLessThanOrEqual(7);
        } else {
          expect(seen.all).toBeGreaterThanOrEqual(400);
        }

        const before = { ...seen };
        const [rebuilt] = await runner.rebuild(['ticks'], 10_000);
        expect(rebuilt).toMatchObject({ name: 'ticks', position: head });
        expect(await reads.get('tick_counts', 'all')).toEqual({ id: 'all', n: 5, at: ticks });
        if (typed) expect(seen.all - before.all).toBeLessThanOrEqual(7);

        // Live again: ticks appended now are applied once each, at the head, by the shared read, without a read
        // of the head on every step (a step at the head runs after every search's recall trace).
        const heads = seen.heads;
        const late: number[] = [];
        for (let n = 0; n < 20; n++) {
          const { position } = await store.append(
            'late',
            [{ type: 'Tick', data: {}, metadata: meta() }],
            'any',
          );
          late.push(position);
          expect(await runner.waitFor(position, 10_000)).toBe(true);
        }
        expect(await reads.get('tick_counts', 'all')).toEqual({ id: 'all', n: 25, at: [...ticks, ...late] });
        expect(seen.heads - heads).toBeLessThan(5);
      },
    );
  }
});

describe('projection runner: at the head, events of other types cost a step per poll, not a step each', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());

  it('a stream of events no projection applies (recall traces) is read once per poll; a waited-for tick still applies at once', async () => {
    const db = openSqlite({ path: `${temp.dir}/noise.sqlite` });
    const store = new SqliteEventStore(db);
    const { counted, seen } = countingReads(store, true);
    const reads = new SqliteReadStore(db);
    let checkpointReads = 0;
    const getCheckpoint = reads.getCheckpoint.bind(reads);
    reads.getCheckpoint = (name) => {
      checkpointReads += 1;
      return getCheckpoint(name);
    };
    // Long enough that a waited-for tick applied within it was not picked up by a poll, on a loaded machine too.
    const poll = 200;
    const runner = new ProjectionRunner(counted, reads, new SqliteSearchIndex(db), [tickCounter()], {
      owner: 'noise',
      pollIntervalMs: poll,
    });
    try {
      await runner.prepare();
      runner.start();
      const first = await store.append('t', [{ type: 'Tick', data: {}, metadata: meta() }], 'any');
      expect(await runner.waitFor(first.position, 10_000)).toBe(true);

      // 300 appends of another type, one at a time, as searches append their traces.
      const before = { reads: seen.all, checkpoints: checkpointReads };
      const started = Date.now();
      for (let n = 0; n < 300; n++) {
        await store.append(`noise-${n}`, [{ type: 'Noise', data: { n }, metadata: meta() }], 'any');
        await new Promise((resolve) => setImmediate(resolve));
      }
      await new Promise((resolve) => setTimeout(resolve, poll * 3));
      // Stepping again at once after every step that found something made one step per append (~300 here).
      const polls = Math.ceil((Date.now() - started) / poll);
      expect(checkpointReads - before.checkpoints).toBeLessThanOrEqual(2 * polls + 4);
      expect(seen.all - before.reads).toBe(300);

      // A tick appended now and waited for is applied without waiting out a poll (the waiter nudges the loop).
      const tick = await store.append('t', [{ type: 'Tick', data: {}, metadata: meta() }], 'any');
      const waited = Date.now();
      expect(await runner.waitFor(tick.position, 10_000)).toBe(true);
      expect(Date.now() - waited).toBeLessThan(poll);
      expect(await reads.get('tick_counts', 'all')).toEqual({
        id: 'all',
        n: 2,
        at: [first.position, tick.position],
      });
    } finally {
      await runner.stop();
      db.close();
    }
  });
});
