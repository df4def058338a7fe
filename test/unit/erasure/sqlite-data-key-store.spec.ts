import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { subjects, type DataKey } from '../../../src/infrastructure/erasure/data-key-store.port';
import {
  KEY_POOL_SIZE,
  KEYS_KEPT,
  SqliteDataKeyStore,
} from '../../../src/infrastructure/erasure/sqlite-data-key-store';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { SealingEventStore } from '../../../src/infrastructure/erasure/sealing-event-store';
import { sealedKeyIds } from '../../../src/infrastructure/erasure/sealed-value';
import { SqliteEventStore } from '../../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { WrongExpectedVersionError } from '../../../src/infrastructure/event-store/wrong-expected-version.error';
import { memoryItemCreated } from '../../support/sealed-event-fixtures';
import { makeTempDir } from '../../support/temp-dir';

describe('SqliteDataKeyStore: pooled keys, bindings on the event file', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());
  let n = 0;
  const open = (): {
    dir: string;
    events: SqliteDatabase;
    store: () => SqliteDataKeyStore;
    /** keyFor, then its pending binding written as an append writes it (in a transaction of the event file). */
    use: (keys: SqliteDataKeyStore, subject: string, organization: number) => DataKey;
    keyRows: () => number;
  } => {
    const dir = join(temp.dir, `case-${++n}`);
    const events = openSqlite({ path: join(dir, 'cairn.sqlite'), synchronous: 'NORMAL' });
    const keyFile = join(dir, 'cairn-keys.sqlite');
    return {
      dir,
      events,
      store: () => new SqliteDataKeyStore(keyFile, { bindings: events }),
      use: (keys, subject, organization) => {
        const key = keys.keyFor(subject, organization);
        const pending = keys.takePendingBindings();
        if (pending) {
          events.transaction(pending.write)();
          pending.committed();
        }
        return key;
      },
      keyRows: () => {
        const db = openSqlite({ path: keyFile, readonly: true, mmapBytes: 0 });
        const count = db.prepare('SELECT count(*) FROM data_keys').pluck().get() as number;
        db.close();
        return count;
      },
    };
  };

  it('a new subject commits nothing to the key file once the pool is filled; its binding is on the event file', () => {
    const { dir, events, store, use, keyRows } = open();
    const keys = store();
    const watcher = openSqlite({ path: join(dir, 'cairn-keys.sqlite'), readonly: true, mmapBytes: 0 });
    const version = () => watcher.pragma('data_version', { simple: true }) as number;
    const first = use(keys, subjects.memoryItem(1), 1);
    expect(keyRows()).toBe(KEY_POOL_SIZE);
    const before = version();
    const ids = [first.key_id];
    for (let id = 2; id <= 10; id++) ids.push(use(keys, subjects.memoryItem(id), 1).key_id);
    // Another connection sees a new data_version only when the key file was committed to.
    expect(version()).toBe(before);
    expect(new Set(ids).size).toBe(10);
    const bound = events.prepare('SELECT subject, organization_id, key_id FROM data_key_bindings').all() as {
      subject: string;
      organization_id: number;
      key_id: string;
    }[];
    expect(Object.fromEntries(bound.map((row) => [row.subject, row.key_id]))).toEqual(
      Object.fromEntries(ids.map((id, i) => [`memory-item-${i + 1}`, id])),
    );
    expect(bound.every((row) => row.organization_id === 1)).toBe(true);
    // The same subject keeps its key; a key opens by its id.
    expect(use(keys, subjects.memoryItem(3), 1)).toEqual({ key_id: ids[2], key: expect.any(Buffer) });
    expect(keys.keyById(ids[2])).toEqual(use(keys, subjects.memoryItem(3), 1).key);
    // The key file names no subject: which key is whose lives in the bindings only.
    keys.close();
    watcher.close();
    expect(readFileSync(join(dir, 'cairn-keys.sqlite')).includes('memory-item-')).toBe(false);
    events.close();
  });

  it('a new process finds bound keys, never hands out another process’s pooled keys, and drops its unused ones', () => {
    const { events, store, use, keyRows } = open();
    const a = store();
    const b = store();
    const fromA = use(a, subjects.conversation(1), 1);
    const fromB = use(b, subjects.conversation(2), 1);
    expect(keyRows()).toBe(2 * KEY_POOL_SIZE);
    expect(fromA.key_id).not.toBe(fromB.key_id);
    expect(use(b, subjects.conversation(1), 1)).toEqual(fromA);
    // Past one pool: a second batch, every key distinct.
    const ids = new Set<string>([fromA.key_id]);
    for (let id = 100; id < 100 + KEY_POOL_SIZE + 5; id++) ids.add(use(a, subjects.memoryItem(id), 1).key_id);
    expect(ids.size).toBe(KEY_POOL_SIZE + 6);
    a.close();
    b.close();
    // What was bound stays; the pooled keys nobody bound are gone.
    expect(keyRows()).toBe(KEY_POOL_SIZE + 6 + 1);
    const c = store();
    expect(use(c, subjects.conversation(2), 1)).toEqual(fromB);
    c.close();
    events.close();
  });

  it('destroys a subject’s keys (seen by another process), a re-written subject gets a new key, an organization all of its own', () => {
    const { events, store, use } = open();
    const server = store();
    const cli = store();
    const item1 = use(server, subjects.memoryItem(1), 1);
    const item2 = use(server, subjects.memoryItem(2), 1);
    const org1 = use(server, subjects.organization(1), 1);
    const other = use(server, subjects.memoryItem(3), 2);
    expect(cli.destroySubjects([subjects.memoryItem(1)], 1)).toBe(1);
    server.refresh();
    expect(server.keyById(item1.key_id)).toBeNull();
    expect(server.keyById(item2.key_id)).toEqual(item2.key);
    expect(cli.destroySubjects([subjects.memoryItem(1)], 1)).toBe(0);
    // A conversation goes on after its erasure: new messages get a new key, destroyed by the next erasure.
    const talk = use(server, subjects.conversation(7), 1);
    expect(cli.destroySubjects([subjects.conversation(7)], 1)).toBe(1);
    server.refresh();
    const again = use(server, subjects.conversation(7), 1);
    expect(again.key_id).not.toBe(talk.key_id);
    expect(server.keyById(again.key_id)).toEqual(again.key);
    expect(cli.destroySubjects([subjects.conversation(7)], 1)).toBe(1);

    expect(cli.destroyOrganization(1)).toBe(2);
    server.refresh();
    expect(server.keyById(item2.key_id)).toBeNull();
    expect(server.keyById(org1.key_id)).toBeNull();
    expect(server.keyById(other.key_id)).toEqual(other.key);
    server.close();
    cli.close();
    events.close();
  });

  it.each([
    ['a memory item', subjects.memoryItem(4)],
    ['a proposal', subjects.proposal(4)],
  ])(
    '%s erased is erased for good: what is sealed for it afterwards is sealed under a key nobody stores',
    (_kind, subject) => {
      const { events, store, use, keyRows } = open();
      const server = store();
      const cli = store();
      const before = use(server, subject, 1);
      expect(cli.destroySubjects([subject], 1)).toBe(1);
      const rowsAfterErasure = keyRows();
      server.refresh();
      const after = use(server, subject, 1);
      expect(after.key_id).not.toBe(before.key_id);
      // Not in the key file, not in this process, not in another: the value was erased when it was written.
      expect(keyRows()).toBe(rowsAfterErasure);
      expect(server.keyById(after.key_id)).toBeNull();
      expect(cli.keyById(after.key_id)).toBeNull();
      const third = store();
      expect(third.keyById(after.key_id)).toBeNull();
      third.close();
      // The same key for the rest of the process (one value is not readable under another), and bound to the subject
      // so an audit counts it with the erased ones.
      expect(use(server, subject, 1)).toEqual(after);
      const bound = events
        .prepare('SELECT key_id FROM data_key_bindings WHERE subject = ?')
        .pluck()
        .all(subject);
      expect(bound).toEqual(expect.arrayContaining([before.key_id, after.key_id]));
      server.close();
      cli.close();
      events.close();
    },
  );

  it('a revision decided before its item was erased and appended after it is stored unreadable', async () => {
    const { events, store } = open();
    const server = store();
    const cli = store();
    const sealing = new SealingEventStore(new SqliteEventStore(events), server);
    await sealing.append('memory-item-6', [memoryItemCreated(6)], 'no_stream');
    // memory:erase in another process between the writer's read and its append.
    expect(cli.destroySubjects([subjects.memoryItem(6)], 1)).toBe(1);
    const revision = memoryItemCreated(6);
    const text = 'A later sentence written to item 6 after its erasure.';
    await sealing.append(
      'memory-item-6',
      [{ ...revision, type: 'MemoryItemRevised', data: { ...revision.data, revision: 2, content: text } }],
      0,
    );
    const read = await sealing.readStream('memory-item-6');
    expect(read.map((event) => event.data.content)).toEqual(['', '']);
    expect(JSON.stringify(read)).not.toContain('later sentence');
    await sealing.close();
    cli.close();
    events.close();
  });

  it('keeps at most KEYS_KEPT keys in memory, by id and by subject; one let go is read back from the key file', () => {
    const { events, store, use } = open();
    const keys = store();
    const first = use(keys, subjects.memoryItem(0), 1);
    for (let id = 1; id <= KEYS_KEPT + 5; id++) use(keys, subjects.memoryItem(id), 1);
    expect(keys.keysKept).toEqual({ byId: KEYS_KEPT, bySubject: KEYS_KEPT });
    // Item 0's key was let go: still found, by id and by subject, from the files.
    expect(keys.keyById(first.key_id)).toEqual(first.key);
    expect(keys.keyFor(subjects.memoryItem(0), 1)).toEqual(first);
    expect(keys.keysKept).toEqual({ byId: KEYS_KEPT, bySubject: KEYS_KEPT });
    keys.close();
    events.close();
  });

  it('a new subject’s binding commits with the append that uses it, or not at all', async () => {
    const { events, store } = open();
    const keys = store();
    const sealing = new SealingEventStore(new SqliteEventStore(events), keys);
    const boundTo = (subject: string) =>
      events.prepare('SELECT key_id FROM data_key_bindings WHERE subject = ?').pluck().all(subject);
    await expect(sealing.append('memory-item-5', [memoryItemCreated(5)], 3)).rejects.toBeInstanceOf(
      WrongExpectedVersionError,
    );
    expect(boundTo('memory-item-5')).toEqual([]);
    await sealing.append('memory-item-5', [memoryItemCreated(5)], 'no_stream');
    expect(boundTo('memory-item-5')).toHaveLength(1);
    const [stored] = await new SqliteEventStore(events).readStream('memory-item-5');
    expect(sealedKeyIds(stored.data.$sealed as string)).toEqual(boundTo('memory-item-5'));
    const [opened] = await sealing.readStream('memory-item-5');
    expect(opened.data.content).toBe('The secret sentence of item 5.');
    await sealing.close();
    events.close();
  });
});
