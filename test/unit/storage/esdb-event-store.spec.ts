/**
 * EsdbEventStore against a stub of the client interface (test/support/esdb-client-stub.ts): what it sends
 * (expected revisions, JSON events with the hash chain), how it maps the client's errors, and what its $all
 * readers do with events Cairn did not write.
 */
import { NO_STREAM } from '@kurrent/kurrentdb-client';
import { AppendTooLargeError } from '../../../src/infrastructure/event-store/append-too-large.error';
import type { RecordedEvent } from '../../../src/infrastructure/event-store/event-store.port';
import { EsdbEventStore } from '../../../src/infrastructure/event-store/esdb/esdb-event-store';
import { WrongExpectedVersionError } from '../../../src/infrastructure/event-store/wrong-expected-version.error';
import { EsdbClientStub } from '../../support/esdb-client-stub';
import { newEvent, newEvents } from '../../contract/event-store.contract-support';

describe('EventStoreDB adapter against a stub of the client', () => {
  let stub: EsdbClientStub;
  let store: EsdbEventStore;

  beforeEach(() => {
    stub = new EsdbClientStub();
    store = new EsdbEventStore(stub.asClient());
  });
  afterEach(async () => store.close());

  describe('appends', () => {
    it('sends NO_STREAM for a new stream, then the exact revision it read, with chained JSON events', async () => {
      await store.append('memory-item-1', newEvents('Created', 2), 'no_stream');
      await store.append('memory-item-1', [newEvent('Revised')], 'any');
      expect(stub.appends.map((call) => call.streamState)).toEqual([NO_STREAM, 1n]);
      const [first, second] = stub.appends;
      expect(first.events.map((event) => event.contentType)).toEqual([
        'application/json',
        'application/json',
      ]);
      const metadata = (call: typeof first, n: number) => call.events[n].metadata as Record<string, string>;
      expect(metadata(first, 0).prev_hash).toBe('0'.repeat(64));
      expect(metadata(first, 1).prev_hash).toBe(metadata(first, 0).hash);
      expect(metadata(second, 0).prev_hash).toBe(metadata(first, 1).hash);
    });

    it('refuses a stale exact revision or no_stream with the port error and the actual revision', async () => {
      await store.append('s', newEvents('E', 3), 'no_stream');
      await expect(store.append('s', [newEvent('E')], 1)).rejects.toMatchObject({
        name: 'WrongExpectedVersionError',
        actual: 2,
      });
      await expect(store.append('s', [newEvent('E')], 'no_stream')).rejects.toBeInstanceOf(
        WrongExpectedVersionError,
      );
    });

    it('maps a race lost on the server for an exact revision to the port error', async () => {
      await store.append('s', [newEvent('E')], 'no_stream');
      stub.racesToLose = 1;
      const failure = store.append('s', [newEvent('E')], 0);
      await expect(failure).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(failure).rejects.toMatchObject({ expected: 0, actual: 1 });
    });

    it("keeps re-reading an 'any' or 'stream_exists' append through many lost races", async () => {
      await store.append('busy', [newEvent('E')], 'no_stream');
      stub.racesToLose = 20;
      const result = await store.append('busy', [newEvent('Mine')], 'any');
      expect(result.next_expected_revision).toBe(21);
      stub.racesToLose = 12;
      await store.append('busy', [newEvent('Mine')], 'stream_exists');
      const mine = (await store.readStream('busy')).filter((event) => event.type === 'Mine');
      expect(mine.map((event) => event.revision)).toEqual([21, 34]);
    });

    it('maps the server refusing an append over MaxAppendSize to AppendTooLargeError', async () => {
      stub.maxAppendSize = 1000;
      const failure = store.append('big', [newEvent('E', { text: 'x'.repeat(2000) })], 'any');
      await expect(failure).rejects.toBeInstanceOf(AppendTooLargeError);
      await expect(failure).rejects.toMatchObject({ limit: 1000 });
    });
  });

  describe('events Cairn did not write, in $all', () => {
    beforeEach(async () => {
      await store.append('organization-1', [newEvent('A')], 'no_stream');
      stub.writeForeign({ streamId: 'other-app-1', type: 'SomethingElse', data: { x: 1 } });
      stub.writeForeign({ streamId: 'binary-1', type: 'Blob', isJson: false, data: new Uint8Array([1, 2]) });
      stub.writeForeign({ streamId: '$ce-organization', type: '$>', data: '0@organization-1' });
      stub.writeForeign({ streamId: '$stats-127.0.0.1:2113', type: '$statsCollected', data: {} });
      await store.append('organization-2', [newEvent('B')], 'no_stream');
      stub.writeForeign({ streamId: 'other-app-2', type: 'Trailing', data: {} });
    });

    it('readAll, headPosition and listStreams skip them', async () => {
      const events = await store.readAll();
      expect(events.map((event) => event.type)).toEqual(['A', 'B']);
      expect(await store.headPosition()).toBe(events[1].position);
      const streams: string[] = [];
      for await (const stream of store.listStreams()) streams.push(stream);
      expect(streams).toEqual(['organization-1', 'organization-2']);
    });

    it('a subscription steps over them instead of stopping', async () => {
      const seen: string[] = [];
      const errors: Error[] = [];
      const subscription = store.subscribeToAll({
        after_position: 0,
        on_event: (event) => void seen.push(event.type),
        on_error: (error) => void errors.push(error),
      });
      await waitUntil(() => seen.length === 2);
      await subscription.stop();
      expect(seen).toEqual(['A', 'B']);
      expect(errors).toEqual([]);
    });

    it('a stream read still refuses a foreign event inside a stream (evidence for audit:verify)', async () => {
      await expect(store.readStream('other-app-1')).rejects.toThrow(/not written by Cairn/);
    });
  });

  describe('subscriptions', () => {
    it('reports a dropped subscription once; a new one from the last checkpoint resumes without gap or repeat', async () => {
      await store.append('s', newEvents('E', 5), 'no_stream');
      stub.dropAfter = { events: 2, error: new Error('UNAVAILABLE: connection reset') };
      const seen: RecordedEvent[] = [];
      const errors: Error[] = [];
      store.subscribeToAll({
        after_position: 0,
        on_event: (event) => void seen.push(event),
        on_error: (error) => void errors.push(error),
      });
      await waitUntil(() => errors.length > 0);
      expect(errors.map((error) => error.message)).toEqual(['UNAVAILABLE: connection reset']);
      expect(seen).toHaveLength(2);
      const resumed = store.subscribeToAll({
        after_position: seen[seen.length - 1].position,
        on_event: (event) => void seen.push(event),
      });
      await waitUntil(() => seen.length === 5);
      await resumed.stop();
      expect(seen.map((event) => event.data.n)).toEqual([0, 1, 2, 3, 4]);
    });
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
