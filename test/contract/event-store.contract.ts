import { verifyChain } from '../../src/infrastructure/event-store/hash-chain';
/**
 * THE EventStore contract: every adapter runs this one suite. Stream names carry a random per-test prefix so the
 * suite also runs against a shared server; global reads are filtered to the test's own streams.
 */
import { randomUUID } from 'node:crypto';
import type { EventStore, RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import { GENESIS_HASH } from '../../src/infrastructure/event-store/hash-chain';
import {
  expectStrictlyIncreasing,
  expectWrongVersion,
  metadata,
  newEvent,
  newEvents,
  type StoreFixture,
} from './event-store.contract-support';
import { AppendTooLargeError } from '../../src/infrastructure/event-store/append-too-large.error';
import { describeSubscriptionContract } from './event-store.contract-subscriptions';

export type { StoreFixture } from './event-store.contract-support';

export interface ContractContext {
  store: () => EventStore;
  /** Unique prefix of this test's streams. */
  prefix: () => string;
  stream: (name: string) => string;
}

export function describeEventStoreContract(name: string, makeStore: () => Promise<StoreFixture>): void {
  describe(`EventStore contract: ${name}`, () => {
    let fixture: StoreFixture;
    let prefix = '';
    beforeEach(async () => {
      prefix = `contract${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      fixture = await makeStore();
    });
    afterEach(async () => {
      await fixture.cleanup();
    });
    const ctx: ContractContext = {
      store: () => fixture.store,
      prefix: () => prefix,
      stream: (suffix) => `${prefix}-${suffix}`,
    };
    const ours = (events: RecordedEvent[]): RecordedEvent[] =>
      events.filter((e) => e.stream.startsWith(prefix));

    describe('append and expected revisions', () => {
      it('no_stream: creates the stream once, then fails with the actual revision', async () => {
        const stream = ctx.stream('a');
        const result = await ctx.store().append(stream, [newEvent('Created')], 'no_stream');
        expect(result.next_expected_revision).toBe(0);
        expect(Number.isSafeInteger(result.position) && result.position > 0).toBe(true);
        await expectWrongVersion(
          ctx.store().append(stream, [newEvent('Again')], 'no_stream'),
          stream,
          'no_stream',
          0,
        );
        expect(await ctx.store().readStream(stream)).toHaveLength(1);
      });

      it('exact revision: succeeds only when it is the current revision', async () => {
        const stream = ctx.stream('a');
        await expectWrongVersion(ctx.store().append(stream, [newEvent('X')], 0), stream, 0, null);
        await ctx.store().append(stream, [newEvent('First')], 'no_stream');
        const second = await ctx.store().append(stream, [newEvent('Second')], 0);
        expect(second.next_expected_revision).toBe(1);
        await expectWrongVersion(ctx.store().append(stream, [newEvent('Stale')], 0), stream, 0, 1);
        await expectWrongVersion(ctx.store().append(stream, [newEvent('Ahead')], 5), stream, 5, 1);
        expect((await ctx.store().readStream(stream)).map((e) => e.type)).toEqual(['First', 'Second']);
      });

      it('stream_exists: fails on a missing stream, appends to an existing one', async () => {
        const stream = ctx.stream('a');
        await expectWrongVersion(
          ctx.store().append(stream, [newEvent('X')], 'stream_exists'),
          stream,
          'stream_exists',
          null,
        );
        expect(await ctx.store().readStream(stream)).toEqual([]);
        await ctx.store().append(stream, [newEvent('First')], 'no_stream');
        const result = await ctx.store().append(stream, [newEvent('Second')], 'stream_exists');
        expect(result.next_expected_revision).toBe(1);
      });

      it('any: creates a missing stream and appends to an existing one', async () => {
        const stream = ctx.stream('a');
        expect((await ctx.store().append(stream, [newEvent('One')], 'any')).next_expected_revision).toBe(0);
        expect((await ctx.store().append(stream, newEvents('More', 2), 'any')).next_expected_revision).toBe(
          2,
        );
        expect((await ctx.store().readStream(stream)).map((e) => e.revision)).toEqual([0, 1, 2]);
      });

      it('a multi-event append gets consecutive revisions and increasing positions; the result names the last', async () => {
        const stream = ctx.stream('a');
        await ctx.store().append(stream, [newEvent('Before')], 'no_stream');
        const result = await ctx.store().append(stream, newEvents('Batch', 4), 0);
        const events = await ctx.store().readStream(stream);
        expect(events.map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
        expectStrictlyIncreasing(events.map((e) => e.position));
        expect(result).toEqual({ next_expected_revision: 4, position: events[4].position });
        expect(events.slice(1).map((e) => e.data)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
      });

      it('a multi-event append is all or nothing', async () => {
        const stream = ctx.stream('a');
        await ctx.store().append(stream, [newEvent('Only')], 'no_stream');
        await expectWrongVersion(
          ctx.store().append(stream, newEvents('Lost', 3), 'no_stream'),
          stream,
          'no_stream',
          0,
        );
        const circular: Record<string, unknown> = {};
        circular.self = circular;
        const batch = [newEvent('Fine'), newEvent('Fine'), newEvent('Broken', circular)];
        await expect(ctx.store().append(stream, batch, 0)).rejects.toThrow();
        expect((await ctx.store().readStream(stream)).map((e) => e.type)).toEqual(['Only']);
        expect((await ctx.store().append(stream, [newEvent('Next')], 0)).next_expected_revision).toBe(1);
      });

      it("refuses an append over 1 MiB (KurrentDB's default MaxAppendSize) without writing; one under it passes", async () => {
        const stream = ctx.stream('a');
        const text = (chars: number) => ({ text: 'x'.repeat(chars) });
        // One event over the limit, and a batch of events each small but together over it.
        const tooLarge = [
          [newEvent('Big', text(1_100_000))],
          Array.from({ length: 3 }, () => newEvent('Part', text(360_000))),
        ];
        for (const events of tooLarge) {
          const failure = ctx.store().append(stream, events, 'any');
          await expect(failure).rejects.toBeInstanceOf(AppendTooLargeError);
          await expect(failure).rejects.toMatchObject({ limit: 1024 * 1024 });
        }
        // Multi-byte text counts in UTF-8 bytes: 400,000 × 3 bytes is over the limit.
        await expect(
          ctx
            .store()
            .append(
              stream,
              [newEvent('Wide', text(0)), newEvent('Wide', { text: '€'.repeat(400_000) })],
              'any',
            ),
        ).rejects.toBeInstanceOf(AppendTooLargeError);
        expect(await ctx.store().readStream(stream)).toEqual([]);
        await ctx.store().append(stream, [newEvent('Fits', text(1_000_000))], 'no_stream');
        expect((await ctx.store().readStream(stream)).map((e) => e.type)).toEqual(['Fits']);
      });

      it('rejects malformed appends without writing', async () => {
        const stream = ctx.stream('a');
        await expect(ctx.store().append(stream, [], 'any')).rejects.toThrow(TypeError);
        await expect(ctx.store().append(stream, [newEvent('X')], -1)).rejects.toThrow(TypeError);
        await expect(
          ctx.store().append(stream, [newEvent('X', {}, { event_id: 'nope' })], 'any'),
        ).rejects.toThrow(TypeError);
        expect(await ctx.store().readStream(stream)).toEqual([]);
      });

      it('keeps a supplied event_id and generates distinct UUIDs otherwise', async () => {
        const stream = ctx.stream('a');
        const id = randomUUID();
        await ctx
          .store()
          .append(
            stream,
            [newEvent('Given', {}, { event_id: id }), newEvent('Generated'), newEvent('Generated')],
            'any',
          );
        const [given, a, b] = await ctx.store().readStream(stream);
        expect(given.event_id).toBe(id);
        expect(a.event_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        expect(a.event_id).not.toBe(b.event_id);
      });

      it('generates time-ordered event ids (UUID version 7): each later than the one before', async () => {
        const stream = ctx.stream('ordered');
        await ctx.store().append(stream, newEvents('Batch', 3), 'any');
        for (let n = 0; n < 3; n++) await ctx.store().append(stream, [newEvent('Single')], 'any');
        const ids = (await ctx.store().readStream(stream)).map((event) => event.event_id);
        for (const id of ids)
          expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect([...ids].sort()).toEqual(ids);
        expect(new Set(ids).size).toBe(ids.length);
      });

      it('concurrent appends with the same expected revision: exactly one wins', async () => {
        const stream = ctx.stream('race');
        const first = await Promise.allSettled(
          Array.from({ length: 8 }, (_, i) =>
            ctx.store().append(stream, [newEvent('Racer', { i })], 'no_stream'),
          ),
        );
        expect(first.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of first.filter((r) => r.status === 'rejected')) {
          expect((r as PromiseRejectedResult).reason).toMatchObject({
            name: 'WrongExpectedVersionError',
            actual: 0,
          });
        }
        const second = await Promise.allSettled(
          Array.from({ length: 8 }, (_, i) => ctx.store().append(stream, newEvents(`Racer${i}`, 2), 0)),
        );
        expect(second.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const events = await ctx.store().readStream(stream);
        expect(events.map((e) => e.revision)).toEqual([0, 1, 2]);
        expect(verifyChain(events)).toBeNull();
      });
    });

    describe('recorded content', () => {
      it('round-trips metadata and chains prev_hash/hash per stream, across appends', async () => {
        const stream = ctx.stream('chain');
        const meta = metadata({
          organization_id: null,
          causation_id: 'cause-1',
          actor: 'operator:ana',
          schema_version: 3,
        });
        await ctx.store().append(stream, [{ type: 'A', data: { v: 1 }, metadata: meta }], 'no_stream');
        await ctx.store().append(stream, [newEvent('B'), newEvent('C')], 0);
        await ctx.store().append(ctx.stream('other'), [newEvent('Elsewhere')], 'no_stream');
        await ctx.store().append(stream, [newEvent('D')], 2);
        const events = await ctx.store().readStream(stream);
        expect(events).toHaveLength(4);
        expect(events[0].metadata).toMatchObject(meta);
        expect(events[0].metadata.prev_hash).toBe(GENESIS_HASH);
        for (let i = 1; i < events.length; i++)
          expect(events[i].metadata.prev_hash).toBe(events[i - 1].metadata.hash);
        for (const e of events) expect(e.metadata.hash).toMatch(/^[0-9a-f]{64}$/);
        expect(verifyChain(events)).toBeNull();
        const other = await ctx.store().readStream(ctx.stream('other'));
        expect(other[0].metadata.prev_hash).toBe(GENESIS_HASH);
        expect(verifyChain(other)).toBeNull();
      });

      it('round-trips unicode, nested objects and arrays exactly', async () => {
        const stream = ctx.stream('data');
        const data = {
          text: 'Grüße, 你好, مرحبا, שלום, 🧗‍♀️🏔️, e\u0301, \u2028\u2029, "quoted" \\ / \t\n',
          nested: { deeper: { deepest: [1, { two: [2, [3, [4]]] }], empty: {} }, list: [] },
          numbers: [0, -1, 3.14159, 1e-7, 1.5e300, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER],
          flags: [true, false, null],
          'key with spaces': 'ok',
          'ключ🔑': { ünïcödé: 'välüe' },
        };
        const head = await ctx.store().headPosition();
        await ctx.store().append(stream, [newEvent('Rich', data)], 'no_stream');
        const [fromStream] = await ctx.store().readStream(stream);
        expect(fromStream.data).toStrictEqual(data);
        expect(JSON.stringify(fromStream.data)).toBe(JSON.stringify(data));
        const [fromAll] = ours(await ctx.store().readAll({ after_position: head }));
        expect(fromAll).toStrictEqual(fromStream);
        expect(verifyChain([fromStream])).toBeNull();
      });
    });

    describe('reads', () => {
      it('readStream: forward, backward, from_revision, max_count; unknown stream reads as []', async () => {
        const stream = ctx.stream('r');
        await ctx.store().append(stream, newEvents('E', 5), 'no_stream');
        const revisions = async (options: Parameters<EventStore['readStream']>[1]) =>
          (await ctx.store().readStream(stream, options)).map((e) => e.revision);
        expect(await revisions({})).toEqual([0, 1, 2, 3, 4]);
        expect(await revisions({ from_revision: 2 })).toEqual([2, 3, 4]);
        expect(await revisions({ max_count: 2 })).toEqual([0, 1]);
        expect(await revisions({ from_revision: 1, max_count: 2 })).toEqual([1, 2]);
        expect(await revisions({ from_revision: 9 })).toEqual([]);
        expect(await revisions({ direction: 'backward' })).toEqual([4, 3, 2, 1, 0]);
        expect(await revisions({ direction: 'backward', from_revision: 3, max_count: 2 })).toEqual([3, 2]);
        expect(await revisions({ direction: 'backward', max_count: 1 })).toEqual([4]);
        expect(await ctx.store().readStream(ctx.stream('unknown'))).toEqual([]);
        expect(await ctx.store().readStream(ctx.stream('unknown'), { direction: 'backward' })).toEqual([]);
      });

      it('readAll: global order across streams, after_position exclusive, max_count', async () => {
        const head = await ctx.store().headPosition();
        const [a, b] = [ctx.stream('a'), ctx.stream('b')];
        await ctx.store().append(a, newEvents('A', 2), 'no_stream');
        await ctx.store().append(b, [newEvent('B')], 'no_stream');
        await ctx.store().append(a, [newEvent('A2')], 1);
        const all = ours(await ctx.store().readAll({ after_position: head }));
        expect(all.map((e) => `${e.stream}@${e.revision}`)).toEqual([`${a}@0`, `${a}@1`, `${b}@0`, `${a}@2`]);
        expect(all.every((e) => e.position > head)).toBe(true);
        expectStrictlyIncreasing(all.map((e) => e.position));
        const byStream = [...(await ctx.store().readStream(a)), ...(await ctx.store().readStream(b))];
        for (const e of all) expect(byStream.find((s) => s.event_id === e.event_id)).toStrictEqual(e);
        const rest = ours(await ctx.store().readAll({ after_position: all[1].position }));
        expect(rest.map((e) => e.event_id)).toEqual(all.slice(2).map((e) => e.event_id));
        const page = await ctx.store().readAll({ after_position: head, max_count: 2 });
        expect(page).toHaveLength(2);
        expect(ours(page).map((e) => e.event_id)).toEqual(
          all.slice(0, ours(page).length).map((e) => e.event_id),
        );
        expect(await ctx.store().readAll({ after_position: all[3].position, max_count: 0 })).toEqual([]);
      });

      it('headPosition: the position of the newest event', async () => {
        const before = await ctx.store().headPosition();
        expect(Number.isSafeInteger(before) && before >= 0).toBe(true);
        const first = await ctx.store().append(ctx.stream('h'), newEvents('H', 3), 'no_stream');
        expect(await ctx.store().headPosition()).toBe(first.position);
        const second = await ctx.store().append(ctx.stream('h'), [newEvent('H')], 2);
        expect(second.position).toBeGreaterThan(first.position);
        expect(await ctx.store().headPosition()).toBe(second.position);
      });

      it('listStreams: every stream once, in order of first appearance', async () => {
        await ctx.store().append(ctx.stream('b'), [newEvent('X')], 'any');
        await ctx.store().append(ctx.stream('a'), [newEvent('X')], 'any');
        await ctx.store().append(ctx.stream('b'), [newEvent('X')], 'any');
        await ctx.store().append(ctx.stream('c'), newEvents('X', 2), 'any');
        const streams: string[] = [];
        for await (const stream of ctx.store().listStreams())
          if (stream.startsWith(prefix)) streams.push(stream);
        expect(streams).toEqual([ctx.stream('b'), ctx.stream('a'), ctx.stream('c')]);
      });

      it('ping answers', async () => {
        await expect(ctx.store().ping()).resolves.toBeUndefined();
      });
    });

    describeSubscriptionContract(ctx);
  });
}
