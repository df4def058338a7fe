import { SqliteEventStore } from '../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { SqliteReadStore } from '../../src/infrastructure/read-store/sqlite/sqlite-read-store';
import { SqliteSearchIndex } from '../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite, type SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';
import type { RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import type { Projection, ProjectionContext } from '../../src/projections/projection';
import { ProjectionRunner } from '../../src/projections/projection-runner';
import { makeTempDir } from '../support/temp-dir';
import { countingProjection, indexingProjection, meta } from '../support/test-projections';

describe('projection runner across processes (separate connections, separate owners)', () => {
  const temp = makeTempDir();
  const path = `${temp.dir}/cairn.sqlite`;
  const dbs: SqliteDatabase[] = [];
  const runners: ProjectionRunner[] = [];

  function node(owner: string, projection = countingProjection()) {
    const db = openSqlite({ path });
    dbs.push(db);
    const events = new SqliteEventStore(db);
    const reads = new SqliteReadStore(db);
    const runner = new ProjectionRunner(events, reads, new SqliteSearchIndex(db), [projection], {
      owner,
      leaseTtlMs: 300,
      pollIntervalMs: 5,
      standbyIntervalMs: 20,
      batchSize: 7,
    });
    runners.push(runner);
    return { events, reads, runner };
  }

  afterAll(async () => {
    for (const runner of runners) await runner.stop();
    for (const db of dbs) db.close();
    temp.cleanup();
  });

  it('one runner holds the lease; every event is applied exactly once, also across a hand-over', async () => {
    const a = node('a');
    const b = node('b');
    await a.runner.prepare();
    a.runner.start();
    b.runner.start();
    for (let i = 0; i < 60; i++)
      await a.events.append(`tick-${i % 5}`, [{ type: 'Tick', data: { i }, metadata: meta() }], 'any');
    expect(await a.runner.waitFor(await a.events.headPosition(), 10_000)).toBe(true);
    const [status] = await a.runner.status();
    expect(['a', 'b']).toContain(status.lease_owner);
    expect(await a.reads.get('counts', 'ticks')).toEqual({ id: 'ticks', n: 60 });

    // The holder stops (its lease is released); the other takes over and continues from the checkpoint.
    const holder = status.lease_owner === 'a' ? a : b;
    const other = holder === a ? b : a;
    await holder.runner.stop();
    for (let i = 0; i < 40; i++)
      await other.events.append('tick-x', [{ type: 'Tick', data: { i }, metadata: meta() }], 'any');
    expect(await other.runner.waitFor(await other.events.headPosition(), 10_000)).toBe(true);
    expect(await other.reads.get('counts', 'ticks')).toEqual({ id: 'ticks', n: 100 });
    expect((await other.runner.status())[0].lease_owner).toBe(holder === a ? 'b' : 'a');
  });

  it('a new projection version rebuilds the read model from zero; an old version never downgrades it', async () => {
    for (const runner of runners) await runner.stop();
    const c = node('c', countingProjection(2));
    c.runner.start();
    expect(await c.runner.waitFor(await c.events.headPosition(), 10_000)).toBe(true);
    // version 2 replays all 100 ticks into an emptied model: still 100, not 200
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await c.reads.get('counts', 'ticks')).toEqual({ id: 'ticks', n: 100 });
    expect((await c.reads.getCheckpoint('counter'))?.version).toBe(2);

    await c.runner.stop();
    const old = node('old', countingProjection(1));
    old.runner.start();
    await old.events.append('tick-y', [{ type: 'Tick', data: {}, metadata: meta() }], 'any');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await old.reads.getCheckpoint('counter'))?.version).toBe(2);
    expect(await old.reads.get('counts', 'ticks')).toEqual({ id: 'ticks', n: 100 });
  });

  it('events a projection ignores leave its read models alone, count as caught up at once, and its stored checkpoint follows', async () => {
    const projection = { ...countingProjection(), name: 'ignorer' };
    const c = node('c', projection);
    await c.runner.prepare();
    c.runner.start();
    await c.events.append('tick-x', [{ type: 'Tick', data: {}, metadata: meta() }], 'any');
    expect(await c.runner.waitFor(await c.events.headPosition(), 10_000)).toBe(true);
    const applied = (await c.reads.getCheckpoint('ignorer'))?.position;
    const ticks = (await c.reads.get<{ id: string; n: number }>('counts', 'ticks'))?.n ?? 0;

    // Other event types: read models unchanged, waiters served at once from the deferred position…
    for (let i = 0; i < 5; i++)
      await c.events.append(`other-${i}`, [{ type: 'Other', data: {}, metadata: meta() }], 'any');
    const head = await c.events.headPosition();
    expect(await c.runner.waitFor(head, 2_000, ['ignorer'])).toBe(true);
    expect((await c.runner.status())[0].lag).toBe(0);
    expect(await c.reads.get('counts', 'ticks')).toEqual({ id: 'ticks', n: ticks });
    // …and the stored checkpoint (what other processes read) follows once the projection is idle.
    const deadline = Date.now() + 5_000;
    while (((await c.reads.getCheckpoint('ignorer'))?.position ?? 0) < head && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await c.reads.getCheckpoint('ignorer'))?.position).toBe(head);
    expect(head).toBeGreaterThan(applied ?? 0);

    // A relevant event after deferred ones is applied once, from the right place.
    await c.events.append('tick-y', [{ type: 'Tick', data: {}, metadata: meta() }], 'any');
    expect(await c.runner.waitFor(await c.events.headPosition(), 10_000)).toBe(true);
    expect(await c.reads.get('counts', 'ticks')).toEqual({ id: 'ticks', n: ticks + 1 });
  });
  it('makes search writes visible once per catch-up (at the head), not once per batch', async () => {
    const db = openSqlite({ path });
    dbs.push(db);
    const events = new SqliteEventStore(db);
    const reads = new SqliteReadStore(db);
    const search = new SqliteSearchIndex(db);
    const indexing = indexingProjection(() => 'b');
    // 21 events in batches of 7: the third batch is full and ends at the head.
    for (let n = 0; n < 21; n += 1) {
      await events.append(`indexed-${n}`, [{ type: 'Indexed', data: {}, metadata: meta() }], 'no_stream');
    }
    const refreshes: number[] = [];
    const runner = new ProjectionRunner(events, reads, search, [indexing], {
      owner: 'indexer',
      batchSize: 7,
      pollIntervalMs: 5,
    });
    runners.push(runner);
    jest.spyOn(search, 'refresh').mockImplementation(async () => {
      refreshes.push((await reads.getCheckpoint('indexing'))?.position ?? 0);
    });
    runner.start();
    const head = await events.headPosition();
    expect(await runner.waitFor(head, 10_000, ['indexing'])).toBe(true);
    // Once, before the checkpoint reached the head (a waiter then finds its write searchable).
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]).toBeLessThan(head);
    await events.append('indexed-late', [{ type: 'Indexed', data: {}, metadata: meta() }], 'no_stream');
    expect(await runner.waitFor(head + 1, 10_000, ['indexing'])).toBe(true);
    expect(refreshes).toHaveLength(2);
  });

  it('defers the visibility of full batches nobody waits for, never of a batch at the head or one waited for', async () => {
    const db = openSqlite({ path: `${temp.dir}/deferring.sqlite` });
    dbs.push(db);
    const events = new SqliteEventStore(db);
    const reads = new SqliteReadStore(db);
    const search = new SqliteSearchIndex(db);
    const indexing = indexingProjection((id) => `moraine ${id}`, true);
    const append = async (n: number) => {
      for (let i = 0; i < n; i += 1) {
        const stream = `indexed-${await events.headPosition()}`;
        await events.append(stream, [{ type: 'Indexed', data: {}, metadata: meta() }], 'no_stream');
      }
    };
    await append(17);
    const deferred: boolean[] = [];
    const write = search.write.bind(search);
    jest.spyOn(search, 'write').mockImplementation(async (writes, options) => {
      deferred.push(options?.defer_visibility === true);
      return write(writes, options);
    });
    const runner = new ProjectionRunner(events, reads, search, [indexing], {
      owner: 'indexer',
      batchSize: 7,
      pollIntervalMs: 5,
    });
    runners.push(runner);
    runner.start();
    // Caught up without anyone waiting: batches of 7, 7 and 3 (at the head).
    const reached = async (position: number) => {
      for (let tries = 0; tries < 2000; tries += 1) {
        if (((await reads.getCheckpoint('indexing'))?.position ?? 0) >= position) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error(`indexing did not reach ${position}`);
    };
    await reached(17);
    expect(deferred).toEqual([true, true, false]);
    const hits = await search.search({ organization_id: 'o', text: 'moraine', limit: 50 });
    expect(hits).toHaveLength(17);
    // Waited for: a full batch is written visible.
    await runner.stop();
    await append(9);
    deferred.length = 0;
    const waiting = runner.waitFor(26, 10_000, ['indexing']);
    runner.start();
    expect(await waiting).toBe(true);
    expect(deferred).toEqual([false, false]);
    expect(await search.search({ organization_id: 'o', text: 'moraine', limit: 50 })).toHaveLength(26);
    // A bulk load nobody waits for: batches at the head are deferred too, and not refreshed at the head; a
    // waitFor() makes them searchable before it returns.
    deferred.length = 0;
    const refresh = jest.spyOn(search, 'refresh');
    const bulk = runner.bulkLoad();
    await append(3);
    await reached(29);
    expect(deferred.length).toBeGreaterThan(0);
    expect(deferred.every((d) => d)).toBe(true);
    expect(refresh).not.toHaveBeenCalled();
    expect(await search.search({ organization_id: 'o', text: 'moraine', limit: 50 })).toHaveLength(26);
    bulk.end();
    expect(await runner.waitFor(29, 10_000, ['indexing'])).toBe(true);
    expect(await search.search({ organization_id: 'o', text: 'moraine', limit: 50 })).toHaveLength(29);
    // A rebuild waits for the head yet defers its full batches (the last, at the head, not); then a waited-for
    // write is visible at once again.
    deferred.length = 0;
    await runner.rebuild(['indexing'], 10_000);
    expect(deferred).toEqual([true, true, true, true, false]);
    expect(await search.search({ organization_id: 'o', text: 'moraine', limit: 50 })).toHaveLength(29);
    await runner.stop();
    deferred.length = 0;
    await append(8);
    const waited = runner.waitFor(37, 10_000, ['indexing']);
    runner.start();
    expect([await waited, ...deferred]).toEqual([true, false, false]);
  });

  it('projections woken together read the new events at the head once, not once each', async () => {
    const names = ['one', 'two', 'three'];
    const db = openSqlite({ path });
    dbs.push(db);
    const events = new SqliteEventStore(db);
    const reads = new SqliteReadStore(db);
    const projections = names.map((name) => ({
      ...countingProjection(),
      name,
      collections: [],
      eventTypes: new Set(['Never']),
    }));
    const runner = new ProjectionRunner(events, reads, new SqliteSearchIndex(db), projections, {
      owner: 'shared-reader',
      pollIntervalMs: 5,
    });
    runners.push(runner);
    runner.start();
    expect(await runner.waitFor(await events.headPosition(), 10_000)).toBe(true);
    // Idle: all three loops poll on one shared timer now.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reading = jest.spyOn(events, 'readAll');
    const before = await events.headPosition();
    await events.append('shared-reads', [{ type: 'Other', data: {}, metadata: meta() }], 'any');
    // Found by the polls (waitFor would wake the loops itself).
    const deadline = Date.now() + 10_000;
    while ((await runner.status()).some((status) => status.position <= before) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const readsOfNewEvent = reading.mock.calls.filter(([options]) => options?.after_position === before);
    expect(readsOfNewEvent).toHaveLength(1);
    reading.mockRestore();
  });
});

describe('projection runner: a step commits what it holds before it grows large', () => {
  const temp = makeTempDir();

  afterAll(() => temp.cleanup());

  it('a batch whose writes pass the step limit is committed in parts, every event applied once', async () => {
    const db = openSqlite({ path: `${temp.dir}/cairn.sqlite` });
    const events = new SqliteEventStore(db);
    const reads = new SqliteReadStore(db);
    // Two documents per event: a batch of 5,000 events would hold 10,000 writes.
    const twoPerEvent: Projection = {
      name: 'pairs',
      version: 1,
      collections: [{ name: 'pairs', indexes: [] }],
      eventTypes: new Set(['Tick']),
      apply(event: RecordedEvent, context: ProjectionContext) {
        context.put('pairs', { id: `${event.position}-a` });
        context.put('pairs', { id: `${event.position}-b` });
      },
    };
    const commitSizes: number[] = [];
    const commit = reads.commit.bind(reads);
    jest.spyOn(reads, 'commit').mockImplementation(async (projection, expected, next, ops) => {
      commitSizes.push(ops.length);
      return commit(projection, expected, next, ops);
    });
    const runner = new ProjectionRunner(events, reads, new SqliteSearchIndex(db), [twoPerEvent], {
      owner: 'only',
      pollIntervalMs: 5,
    });
    try {
      for (let part = 0; part < 4; part++) {
        const batch = Array.from({ length: 1500 }, (_, i) => ({
          type: 'Tick',
          data: { i: part * 1500 + i },
          metadata: meta(),
        }));
        await events.append('ticks', batch, 'any');
      }
      await runner.prepare();
      runner.start();
      expect(await runner.waitFor(await events.headPosition(), 30_000)).toBe(true);
      expect((await reads.find('pairs', { limit: 1 })).total).toBe(12_000);
      expect(Math.max(...commitSizes)).toBeLessThanOrEqual(6000);
      expect(commitSizes.reduce((sum, size) => sum + size, 0)).toBe(12_000);
    } finally {
      await runner.stop();
      await events.close();
      db.close();
    }
  });
});
