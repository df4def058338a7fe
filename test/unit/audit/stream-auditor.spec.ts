import { StreamAuditor } from '../../../src/audit/stream-auditor';
import type { EventStore, NewEvent } from '../../../src/infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';

const event = (type: string): NewEvent => ({
  type,
  data: { note: type },
  metadata: {
    organization_id: '1',
    correlation_id: 'c',
    causation_id: null,
    actor: 'operator:test',
    occurred_at: '2026-01-01T00:00:00.000Z',
    schema_version: 1,
  },
});

/**
 * The stream pass: on a store that cannot count its events apart from the global order (as EventStoreDB), a stream
 * read by name must still be what the log holds.
 */
describe('StreamAuditor', () => {
  let db: SqliteDatabase;
  let store: SqliteEventStore;

  beforeEach(async () => {
    db = openSqlite({ path: ':memory:' });
    store = new SqliteEventStore(db);
    await store.append('a', [event('A0'), event('A1')], 'no_stream');
    await store.append('b', [event('B0')], 'no_stream');
    await store.append('a', [event('A2')], 1);
  });
  afterEach(async () => {
    await store.close();
    db.close();
  });

  /** The same store without countEvents. */
  const uncounted = (): EventStore =>
    Object.assign(Object.create(store) as EventStore, { countEvents: undefined });

  it('an untouched store verifies, with and without a count', async () => {
    for (const audited of [store, uncounted()]) {
      const report = await new StreamAuditor(audited).verify();
      expect(report).toMatchObject({
        streams: 2,
        events: 4,
        first_break: null,
        log_break: null,
        count_mismatch: null,
      });
    }
  });

  it("a stream's last event moved out of the global order: the count says so, or else the stream read by name", async () => {
    db.prepare('UPDATE events SET position = -1 WHERE position = 4').run();
    expect((await new StreamAuditor(store).verify()).count_mismatch).toEqual({
      reason: 'events_outside_the_log',
      log_events: 3,
      stored_events: 4,
    });
    expect((await new StreamAuditor(uncounted()).verify()).count_mismatch).toEqual({
      reason: 'stream_read_differs_from_log',
      stream: 'a',
      log_events: 2,
      stream_events: 3,
      revision: 2,
    });
  });
});
