import { StreamAuditor, type AnchorExport } from '../../../src/audit/stream-auditor';
import type { EventStore, NewEvent } from '../../../src/infrastructure/event-store/event-store.port';
import { EsdbEventStore } from '../../../src/infrastructure/event-store/esdb/esdb-event-store';
import { SqliteEventStore } from '../../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { EsdbClientStub } from '../../support/esdb-client-stub';
import { editData, rechain } from '../../support/sqlite-tampering';

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

/** Three streams interleaved in the log: a (3 events), b (2), c (1). */
async function seed(store: EventStore): Promise<void> {
  await store.append('a', [event('A0'), event('A1')], 'no_stream');
  await store.append('b', [event('B0')], 'no_stream');
  await store.append('c', [event('C0')], 'no_stream');
  await store.append('b', [event('B1')], 0);
  await store.append('a', [event('A2')], 1);
}

/** Appends after the anchor: a grows, d is new (neither may fail the anchor). */
async function later(store: EventStore): Promise<void> {
  await store.append('a', [event('A3')], 2);
  await store.append('d', [event('D0')], 'no_stream');
}

/**
 * The per-stream anchor (stream-heads.ts) on both stores: audit:anchor records every stream's last revision, hash
 * and position; audit:verify against it fails for a stream gone, shorter, re-created or added before the anchor.
 * On EventStoreDB (through the adapter over the client stub) it is the only thing that sees a deleted stream
 * once a scavenge removed its events from $all.
 */
describe('anchored stream heads', () => {
  describe('EventStoreDB adapter (client stub)', () => {
    let stub: EsdbClientStub;
    let store: EsdbEventStore;
    let anchor: AnchorExport;
    const auditor = () => new StreamAuditor(store);

    beforeEach(async () => {
      stub = new EsdbClientStub();
      store = new EsdbEventStore(stub.asClient());
      await seed(store);
      anchor = (await auditor().anchor())!;
      await later(store);
    });

    it('the anchor holds every stream head without a log chain; later appends do not break it', async () => {
      expect(anchor).toMatchObject({
        global_hash: null,
        events: 0,
        streams: 3,
        stream_heads_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(anchor.stream_heads.map(([s, r]) => [s, r])).toEqual([
        ['a', 2],
        ['b', 1],
        ['c', 0],
      ]);
      const a2 = stub.log.find((e) => e.streamId === 'a' && e.revision === 2n)!;
      expect(anchor.position).toBe(Number(a2.position!.commit));
      expect(anchor.stream_heads[0]).toEqual([
        'a',
        2,
        (a2.metadata as { hash: string }).hash,
        anchor.position,
      ]);
      const report = await auditor().verify(undefined, anchor);
      expect(report).toMatchObject({ streams: 4, events: 8, log_head: null, count_mismatch: null });
      expect(report.anchor).toMatchObject({ holds: true, reason: null, stream_break: null });
      const digestOnly = {
        position: anchor.position,
        global_hash: null,
        stream_heads_sha256: anchor.stream_heads_sha256,
      };
      expect((await auditor().verify(undefined, digestOnly)).anchor?.holds).toBe(true);
    });

    it('a deleted stream whose events $all still holds: the stream pass, no anchor needed', async () => {
      for (const hard of [false, true]) {
        stub = new EsdbClientStub();
        store = new EsdbEventStore(stub.asClient());
        await seed(store);
        stub.deleteStream('b', hard);
        expect(await store.readStream('b')).toEqual([]);
        expect((await auditor().verify()).count_mismatch).toEqual({
          reason: 'stream_read_differs_from_log',
          stream: 'b',
          log_events: 2,
          stream_events: 0,
          revision: null,
        });
      }
    });

    it('a deleted stream after a scavenge: unseen without an anchor, stream_missing against it', async () => {
      stub.deleteStream('b');
      stub.scavenge();
      const without = await auditor().verify();
      expect(without).toMatchObject({ first_break: null, log_break: null, count_mismatch: null, streams: 3 });
      const report = await auditor().verify(undefined, anchor);
      expect(report.anchor).toMatchObject({
        holds: false,
        stream_break: { reason: 'stream_missing', stream: 'b', anchored_revision: 1, log_revision: null },
      });
      const digestOnly = {
        position: anchor.position,
        global_hash: null,
        stream_heads_sha256: anchor.stream_heads_sha256,
      };
      expect((await auditor().verify(undefined, digestOnly)).anchor).toMatchObject({
        holds: false,
        stream_break: { reason: 'stream_heads_differ', stream: null },
      });
    });

    it('a truncated stream ($tb) after a scavenge: the log pass sees its first revision missing', async () => {
      stub.truncateStream('a', 1n);
      expect((await auditor().verify()).count_mismatch).toMatchObject({ stream: 'a', revision: 1 });
      stub.scavenge();
      expect((await auditor().verify()).first_break).toMatchObject({
        stream: 'a',
        revision: 1,
        reason: 'revision_gap',
      });
    });

    it('a stream deleted and re-created with the same content: stream_missing at the anchor', async () => {
      const copy = stub.log.filter((e) => e.streamId === 'c');
      stub.deleteStream('c');
      stub.scavenge();
      stub.rewrite(copy);
      const read = await store.readStream('c');
      expect(read.map((e) => [e.revision, e.event_id, e.metadata.hash])).toEqual(
        copy.map((e) => [Number(e.revision), e.id, (e.metadata as { hash: string }).hash]),
      );
      const without = await auditor().verify();
      expect(without).toMatchObject({ first_break: null, log_break: null, count_mismatch: null });
      expect((await auditor().verify(undefined, anchor)).anchor).toMatchObject({
        holds: false,
        stream_break: { reason: 'stream_missing', stream: 'c' },
      });
    });

    it('an anchored stream moved to another place before the anchor, same events: stream_rewritten', async () => {
      const at = stub.log.findIndex((e) => e.streamId === 'c');
      const [moved] = stub.log.splice(at, 1);
      stub.log.unshift({ ...moved, position: { commit: 1050n, prepare: 1050n } });
      const report = await auditor().verify(undefined, anchor);
      expect(report).toMatchObject({ first_break: null, count_mismatch: null });
      expect(report.anchor).toMatchObject({
        holds: false,
        stream_break: { reason: 'stream_rewritten', stream: 'c', anchored_revision: 0, log_revision: 0 },
      });
    });

    it("a stream forged into the server's log before the anchor's position: stream_added", async () => {
      const other = new EsdbClientStub();
      await new EsdbEventStore(other.asClient()).append('z', [event('Z0')], 'no_stream');
      const forged = { ...other.log[0], position: { commit: 1050n, prepare: 1050n } };
      stub.log.unshift(forged);
      const report = await auditor().verify(undefined, anchor);
      expect(report).toMatchObject({ first_break: null, count_mismatch: null });
      expect(report.anchor).toMatchObject({
        holds: false,
        stream_break: { reason: 'stream_added', stream: 'z' },
      });
    });
  });

  describe('embedded SQLite store', () => {
    let db: SqliteDatabase;
    let store: SqliteEventStore;
    let anchor: AnchorExport;
    const auditor = () => new StreamAuditor(store);

    beforeEach(async () => {
      db = openSqlite({ path: ':memory:' });
      store = new SqliteEventStore(db);
      await seed(store);
      anchor = (await auditor().anchor())!;
      await later(store);
    });
    afterEach(async () => {
      await store.close();
      db.close();
    });

    it('the anchor holds the log chain head and the stream heads; an untouched store verifies against it', async () => {
      expect(anchor).toMatchObject({
        position: 6,
        global_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        streams: 3,
      });
      expect((await auditor().verify(undefined, anchor)).anchor).toMatchObject({
        holds: true,
        stream_break: null,
      });
    });

    it('a stream removed with every hash and link recomputed: stream_missing names it', async () => {
      db.prepare("DELETE FROM events WHERE stream = 'b'").run();
      rechain(db);
      const report = await auditor().verify(undefined, anchor);
      expect(report).toMatchObject({ first_break: null, log_break: null, count_mismatch: null });
      expect(report.anchor).toMatchObject({
        holds: false,
        stream_break: { reason: 'stream_missing', stream: 'b', anchored_revision: 1 },
      });
    });

    it("a stream's newest anchored event removed, everything recomputed: stream_truncated", async () => {
      db.prepare("DELETE FROM events WHERE stream = 'b' AND revision = 1").run();
      rechain(db);
      expect((await auditor().verify(undefined, anchor)).anchor).toMatchObject({
        holds: false,
        stream_break: { reason: 'stream_truncated', stream: 'b', anchored_revision: 1, log_revision: 0 },
      });
    });

    it("an anchored head's content edited, everything recomputed: stream_rewritten", async () => {
      editData(db, 'stream = ?', ['c'], { note: 'X' });
      rechain(db);
      expect((await auditor().verify(undefined, anchor)).anchor).toMatchObject({
        holds: false,
        stream_break: { reason: 'stream_rewritten', stream: 'c' },
      });
    });
  });
});
