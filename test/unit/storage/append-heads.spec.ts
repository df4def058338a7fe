import { join } from 'node:path';
import { StreamAuditor } from '../../../src/audit/stream-auditor';
import type { NewEvent } from '../../../src/infrastructure/event-store/event-store.port';
import { AppendHeads } from '../../../src/infrastructure/event-store/sqlite/append-heads';
import { SqliteEventStore } from '../../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { WrongExpectedVersionError } from '../../../src/infrastructure/event-store/wrong-expected-version.error';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { makeTempDir } from '../../support/temp-dir';
import { metadata } from '../../contract/event-store.contract-support';

const note = (text: string): NewEvent => ({ type: 'NoteSaved', data: { text }, metadata: metadata() });

describe("AppendHeads (what a connection's own appends left at the heads)", () => {
  it('keeps heads while data_version holds, forgets them all when it moves, and keeps a bounded number', () => {
    let version = 7;
    const heads = new AppendHeads(() => version, 3);
    heads.checkInLock();
    heads.appended('a', { revision: 0, hash: 'h-a0' }, 'log-1');
    heads.appended('b', { revision: 4, hash: 'h-b4' }, 'log-2');
    heads.checkInLock();
    expect(heads.streamHead('a')).toEqual({ revision: 0, hash: 'h-a0' });
    expect(heads.logHead()).toBe('log-2');
    heads.appended('c', { revision: 1, hash: 'h-c1' }, 'log-3');
    heads.appended('a', { revision: 1, hash: 'h-a1' }, 'log-4');
    heads.appended('d', { revision: 0, hash: 'h-d0' }, 'log-5');
    // Least recently appended to first out: b.
    expect(heads.streamHead('b')).toBeUndefined();
    expect(heads.streamHead('a')).toEqual({ revision: 1, hash: 'h-a1' });
    version = 8;
    heads.checkInLock();
    expect(heads.streamHead('a')).toBeUndefined();
    expect(heads.logHead()).toBeNull();
    heads.appended('a', { revision: 2, hash: 'h-a2' }, 'log-6');
    heads.forget();
    heads.checkInLock();
    expect(heads.streamHead('a')).toBeUndefined();
  });

  describe('in the embedded event store', () => {
    const temp = makeTempDir('cairn-append-heads-');
    const path = join(temp.dir, 'cairn.sqlite');
    const dbs: SqliteDatabase[] = [];
    const open = (): { db: SqliteDatabase; store: SqliteEventStore } => {
      const db = openSqlite({ path });
      dbs.push(db);
      return { db, store: new SqliteEventStore(db) };
    };
    afterAll(() => {
      for (const db of dbs) db.close();
      temp.cleanup();
    });

    it('appends of two connections (two processes) to one stream see each other: revisions, chains and log verify', async () => {
      const a = open();
      const b = open();
      const stores = [a.store, b.store];
      for (let n = 0; n < 12; n++) {
        // Alternating, sometimes twice in a row from one side, with exact expected revisions.
        const store = stores[n % 3 === 2 ? 0 : n % 2];
        await store.append('runbook-7', [note(`revision ${n}`)], n === 0 ? 'no_stream' : n - 1);
        await store.append(`other-${n}`, [note('x')], 'no_stream');
      }
      const events = await a.store.readStream('runbook-7');
      expect(events.map((event) => event.revision)).toEqual([...Array(12).keys()]);
      expect(events.map((event) => (event.data as { text: string }).text)).toEqual(
        [...Array(12).keys()].map((n) => `revision ${n}`),
      );
      // A stale expectation from either side is still refused.
      await expect(b.store.append('runbook-7', [note('late')], 10)).rejects.toThrow(
        WrongExpectedVersionError,
      );
      await expect(a.store.append('runbook-7', [note('late')], 10)).rejects.toThrow(
        WrongExpectedVersionError,
      );
      const report = await new StreamAuditor(b.store).verify();
      expect(report).toMatchObject({ events: 24, first_break: null, log_break: null });
    });

    it('two stores on one connection share what they left; an edit by another connection is read, not remembered', async () => {
      const a = open();
      const twin = new SqliteEventStore(a.db);
      await a.store.append('shift-log', [note('one')], 'no_stream');
      await twin.append('shift-log', [note('two')], 0);
      await a.store.append('shift-log', [note('three')], 1);
      // Another connection removes the stream's last event (an operator's mistake, a restore): the next append
      // must see revision 1 as the last, not the remembered 2.
      const editor = openSqlite({ path });
      dbs.push(editor);
      editor.prepare("DELETE FROM events WHERE stream = 'shift-log' AND revision = 2").run();
      await expect(a.store.append('shift-log', [note('four')], 2)).rejects.toThrow(WrongExpectedVersionError);
      await a.store.append('shift-log', [note('three again')], 1);
      expect((await twin.readStream('shift-log')).map((event) => event.revision)).toEqual([0, 1, 2]);
    });
  });
});
