/** The subscribeToAll part of the EventStore contract (see event-store.contract.ts). */
import type { RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import type { ContractContext } from './event-store.contract';
import { Collector, deferred, newEvent, newEvents, sleep, waitFor } from './event-store.contract-support';

/** How long "nothing more arrives" is observed. */
const QUIET_MS = 200;

export function describeSubscriptionContract(ctx: ContractContext): void {
  describe('subscribeToAll', () => {
    const collectors: Collector[] = [];
    const collector = (): Collector => {
      const created = new Collector(ctx.prefix());
      collectors.push(created);
      return created;
    };
    afterEach(async () => {
      await Promise.all(collectors.splice(0).map((c) => c.stop()));
    });

    it('delivers history, then live events, in order, exactly once; stop() ends delivery', async () => {
      const store = ctx.store();
      const head = await store.headPosition();
      const [a, b] = [ctx.stream('a'), ctx.stream('b')];
      await store.append(a, newEvents('Hist', 2), 'no_stream');
      await store.append(b, [newEvent('Hist')], 'no_stream');
      const sub = collector().subscribe(store, head);
      await sub.waitForCount(3);
      await store.append(a, [newEvent('Live')], 1);
      await store.append(b, newEvents('LiveBatch', 2), 0);
      await sub.waitForCount(6);
      await sleep(QUIET_MS);
      const expected = (await store.readAll({ after_position: head })).filter((e) =>
        e.stream.startsWith(ctx.prefix()),
      );
      expect(sub.events).toStrictEqual(expected);
      expect(new Set(sub.ids()).size).toBe(6);
      await sub.stop();
      await store.append(a, [newEvent('AfterStop')], 2);
      await sleep(QUIET_MS);
      expect(sub.events).toHaveLength(6);
      expect(sub.errors).toEqual([]);
    });

    it('resumes strictly after a checkpoint position', async () => {
      const store = ctx.store();
      const stream = ctx.stream('a');
      await store.append(stream, newEvents('E', 4), 'no_stream');
      const events = await store.readStream(stream);
      const sub = collector().subscribe(store, events[1].position);
      await sub.waitForCount(2);
      await store.append(stream, [newEvent('Live')], 3);
      await sub.waitForCount(3);
      await sleep(QUIET_MS);
      expect(sub.events.map((e) => e.revision)).toEqual([2, 3, 4]);
    });

    it('from the head position, delivers only new events', async () => {
      const store = ctx.store();
      await store.append(ctx.stream('old'), newEvents('Old', 2), 'no_stream');
      const sub = collector().subscribe(store, await store.headPosition());
      await sleep(50);
      await store.append(ctx.stream('new'), [newEvent('New')], 'no_stream');
      await sub.waitForCount(1);
      await sleep(QUIET_MS);
      expect(sub.events.map((e) => e.type)).toEqual(['New']);
    });

    it('calls on_event one at a time, awaiting each promise', async () => {
      const store = ctx.store();
      const head = await store.headPosition();
      let running = 0;
      let maxRunning = 0;
      const sub = collector().subscribe(store, head, async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await sleep(5);
        running--;
      });
      await store.append(ctx.stream('a'), newEvents('E', 5), 'no_stream');
      await store.append(ctx.stream('b'), newEvents('E', 5), 'no_stream');
      await sub.waitForCount(10);
      expect(maxRunning).toBe(1);
      expect(sub.events.map((e) => `${e.stream}@${e.revision}`)).toEqual([
        ...[0, 1, 2, 3, 4].map((r) => `${ctx.stream('a')}@${r}`),
        ...[0, 1, 2, 3, 4].map((r) => `${ctx.stream('b')}@${r}`),
      ]);
    });

    it('stops and reports on_error when on_event throws', async () => {
      const store = ctx.store();
      const head = await store.headPosition();
      const seen: RecordedEvent[] = [];
      const errors: Error[] = [];
      const failure = new Error('projection failed');
      const subscription = store.subscribeToAll({
        after_position: head,
        on_event: (event) => {
          if (!event.stream.startsWith(ctx.prefix())) return;
          seen.push(event);
          if (event.revision === 1) throw failure;
        },
        on_error: (error) => errors.push(error),
      });
      await store.append(ctx.stream('a'), newEvents('E', 4), 'no_stream');
      await waitFor(() => errors.length > 0, 'on_error');
      await sleep(QUIET_MS);
      expect(errors).toEqual([failure]);
      expect(seen.map((e) => e.revision)).toEqual([0, 1]);
      await subscription.stop();
    });

    it('stop() resolves only after the running handler settled', async () => {
      const store = ctx.store();
      const release = deferred();
      let settled = false;
      const sub = collector().subscribe(store, await store.headPosition(), async () => {
        await release.promise;
        settled = true;
      });
      await store.append(ctx.stream('a'), newEvents('E', 2), 'no_stream');
      await sub.waitForCount(1);
      let stopped = false;
      const stopping = sub.stop().then(() => (stopped = true));
      await sleep(50);
      expect(stopped).toBe(false);
      release.resolve();
      await stopping;
      expect(settled).toBe(true);
      await sleep(QUIET_MS);
      expect(sub.events).toHaveLength(1);
    });

    it('stop() awaited inside on_event does not deadlock', async () => {
      const store = ctx.store();
      const sub = collector();
      sub.subscribe(store, await store.headPosition(), async () => {
        await sub.stop();
      });
      await store.append(ctx.stream('a'), newEvents('E', 3), 'no_stream');
      await sub.waitForCount(1);
      await sleep(QUIET_MS);
      expect(sub.events).toHaveLength(1);
    });
  });
}
