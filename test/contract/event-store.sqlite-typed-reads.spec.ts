import fc from 'fast-check';
import { join } from 'node:path';
import type { EventStore, RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite, type SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';
import { makeTempDir } from '../support/temp-dir';
import { newEvent } from './event-store.contract-support';

/** Appends one event of each type in `types`, in order, each to its own stream. */
async function appendTypes(store: EventStore, types: readonly string[]): Promise<void> {
  for (const [n, type] of types.entries()) await store.append(`s-${n}`, [newEvent(type, { n })], 'any');
}

/** Every typed read from `after` on until one reaches the head: the events found and each read's `through`. */
async function readToHead(
  store: SqliteEventStore,
  types: ReadonlySet<string>,
  maxCount: number,
): Promise<{ events: RecordedEvent[]; throughs: number[] }> {
  const events: RecordedEvent[] = [];
  const throughs: number[] = [];
  let after = 0;
  for (let reads = 0; reads < 10_000; reads++) {
    const read = await store.readAllOfTypes({ after_position: after, max_count: maxCount, types });
    events.push(...read.events);
    throughs.push(read.through);
    for (const event of read.events) {
      expect(event.position).toBeGreaterThan(after);
      expect(event.position).toBeLessThanOrEqual(read.through);
    }
    if (read.reached_head) return { events, throughs };
    expect(read.through).toBeGreaterThan(after);
    after = read.through;
  }
  throw new Error('typed reads never reached the head');
}

describe('SqliteEventStore typed reads (readAllOfTypes)', () => {
  const temp = makeTempDir('cairn-es-typed-');
  const open: SqliteDatabase[] = [];
  let files = 0;
  const openStore = (typedReadWindow?: number): SqliteEventStore => {
    const db = openSqlite({ path: join(temp.dir, `events-${files++}.sqlite`) });
    open.push(db);
    return new SqliteEventStore(db, { typedReadWindow });
  };

  afterAll(() => {
    for (const db of open) db.close();
    temp.cleanup();
  });

  it('returns the events of the types asked for, in order, whole; through and reached_head say how far it looked', async () => {
    const store = openStore();
    await appendTypes(store, ['A', 'B', 'A', 'C', 'B', 'A']);
    const all = await store.readAll();

    const read = await store.readAllOfTypes({ after_position: 0, max_count: 10, types: new Set(['A', 'C']) });
    expect(read.events).toEqual(all.filter((event) => event.type === 'A' || event.type === 'C'));
    expect(read.events.map((event) => event.data)).toEqual([{ n: 0 }, { n: 2 }, { n: 3 }, { n: 5 }]);
    expect(read).toMatchObject({ through: 6, reached_head: true });

    // max_count found: through is the last event's position, not the head.
    const first = await store.readAllOfTypes({ after_position: 0, max_count: 2, types: new Set(['A']) });
    expect(first.events.map((event) => event.position)).toEqual([1, 3]);
    expect(first).toMatchObject({ through: 3, reached_head: false });
    const rest = await store.readAllOfTypes({ after_position: 3, max_count: 2, types: new Set(['A']) });
    expect(rest.events.map((event) => event.position)).toEqual([6]);
    expect(rest).toMatchObject({ through: 6, reached_head: true });

    // A type nobody wrote, or none at all: nothing, through the head.
    for (const types of [new Set(['Z']), new Set<string>()]) {
      expect(await store.readAllOfTypes({ after_position: 2, max_count: 5, types })).toEqual({
        events: [],
        through: 6,
        reached_head: true,
      });
    }
    // From the head, or past it: nothing new, and through never moves back.
    expect(await store.readAllOfTypes({ after_position: 9, max_count: 5, types: new Set(['A']) })).toEqual({
      events: [],
      through: 9,
      reached_head: true,
    });
  });

  it('looks through at most its window of positions, then says where it stopped', async () => {
    const store = openStore(4);
    await appendTypes(store, ['X', 'X', 'X', 'X', 'X', 'A', 'X', 'X', 'X', 'X', 'A']);
    const types = new Set(['A']);
    expect(await store.readAllOfTypes({ after_position: 0, max_count: 5, types })).toEqual({
      events: [],
      through: 4,
      reached_head: false,
    });
    const second = await store.readAllOfTypes({ after_position: 4, max_count: 5, types });
    expect(second.events.map((event) => event.position)).toEqual([6]);
    expect(second).toMatchObject({ through: 8, reached_head: false });
    const third = await store.readAllOfTypes({ after_position: 8, max_count: 5, types });
    expect(third.events.map((event) => event.position)).toEqual([11]);
    expect(third).toMatchObject({ through: 11, reached_head: true });
  });

  it('refuses a limit that is not a positive integer and a position that is not a non-negative integer', async () => {
    const store = openStore();
    await appendTypes(store, ['A']);
    const types = new Set(['A']);
    for (const max_count of [0, -1, 1.5, Number.NaN]) {
      await expect(store.readAllOfTypes({ after_position: 0, max_count, types })).rejects.toThrow(RangeError);
    }
    for (const after_position of [-1, 0.5, Number.NaN]) {
      await expect(store.readAllOfTypes({ after_position, max_count: 5, types })).rejects.toThrow(RangeError);
    }
  });

  it('read one after another to the head, they find exactly the events of their types, each once (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('A', 'B', 'C', 'D'), { minLength: 0, maxLength: 40 }),
        fc.subarray(['A', 'B', 'C', 'D']),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 12 }),
        async (types, wanted, maxCount, window) => {
          const store = openStore(window);
          await appendTypes(store, types);
          const wantedSet = new Set(wanted);
          const { events, throughs } = await readToHead(store, wantedSet, maxCount);
          const expected = (await store.readAll()).filter((event) => wantedSet.has(event.type));
          expect(events).toEqual(expected);
          // No read looked less far than the one before (readToHead: each that stopped short moved on), and the
          // last looked through the head.
          throughs.slice(1).forEach((through, n) => expect(through).toBeGreaterThanOrEqual(throughs[n]));
          expect(throughs[throughs.length - 1]).toBe(types.length);
        },
      ),
      { numRuns: 60 },
    );
  });
});
