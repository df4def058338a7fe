import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { subjects } from '../../../src/infrastructure/erasure/data-key-store.port';
import { SealingEventStore } from '../../../src/infrastructure/erasure/sealing-event-store';
import { SqliteDataKeyStore } from '../../../src/infrastructure/erasure/sqlite-data-key-store';
import { SqliteEventStore } from '../../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { backupDataDir, copyOrder } from '../../../src/lifecycle/backup';
import { verifyEventFile } from '../../../src/lifecycle/verify-copy';
import { memoryItemCreated, operatorMetadata } from '../../support/sealed-event-fixtures';
import { makeTempDir } from '../../support/temp-dir';

describe('a backup holds every data key its events need', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());
  const data = join(temp.dir, 'data');
  mkdirSync(data, { recursive: true });
  const db = openSqlite({ path: join(data, 'cairn.sqlite'), synchronous: 'NORMAL' });
  const keys = new SqliteDataKeyStore(join(data, 'cairn-keys.sqlite'), { bindings: db });
  const store = new SealingEventStore(new SqliteEventStore(db), keys);
  afterAll(async () => {
    await store.close();
    db.close();
  });
  const copy = (from: string, to: string) => {
    mkdirSync(join(to), { recursive: true });
    const source = openSqlite({ path: join(data, from), readonly: true, mmapBytes: 0 });
    source.prepare('VACUUM INTO ?').run(join(to, from));
    source.close();
  };

  it('copies the event file first and the key file last', () => {
    expect(copyOrder(['cairn-keys.sqlite', 'a.db', 'cairn.sqlite', 'z/b.db'])).toEqual([
      'cairn.sqlite',
      'a.db',
      'z/b.db',
      'cairn-keys.sqlite',
    ]);
  });

  it('refuses a copy whose key file was taken before a subject was first written (data_keys_missing)', async () => {
    await store.append('memory-item-1', [memoryItemCreated(1)], 'no_stream');
    const early = join(temp.dir, 'keys-first');
    copy('cairn-keys.sqlite', early);
    // Item 2 is this process's second key, from the pool the key file already held; a third process's first
    // key is made after the copy: both kinds of late key must be caught. Force a new pool with a new store.
    const late = new SqliteDataKeyStore(join(data, 'cairn-keys.sqlite'), { bindings: db });
    const lateStore = new SealingEventStore(new SqliteEventStore(db), late);
    await lateStore.append('memory-item-2', [memoryItemCreated(2)], 'no_stream');
    copy('cairn.sqlite', early);
    const verification = await verifyEventFile(early);
    expect(verification.verified).toBe(false);
    expect(verification.keys).toMatchObject({ keys_needed: 2, keys_erased: 0, keys_missing_count: 1 });
    expect(verification.failure).toMatchObject({
      kind: 'data_keys_missing',
      key_ids: [late.keyFor(subjects.memoryItem(2), 1).key_id],
    });
    late.close();

    // In backup's order the same directory gives a complete copy.
    const backup = join(temp.dir, 'backup');
    const { manifest } = await backupDataDir(data, backup);
    expect(manifest.verified.events).toBe(2);
    const complete = await verifyEventFile(backup);
    expect(complete).toMatchObject({
      verified: true,
      failure: null,
      keys: { keys_needed: 2, keys_erased: 0, keys_missing: [], keys_missing_count: 0 },
    });
  });

  it('a key destroyed by a recorded erasure is not missing; one destroyed without a record is', async () => {
    keys.destroySubjects([subjects.memoryItem(1)], 1);
    const unrecorded = join(temp.dir, 'unrecorded');
    await expect(backupDataDir(data, unrecorded)).rejects.toMatchObject({
      code: 'backup_verification_failed',
    });
    expect(existsSync(join(unrecorded, 'cairn-backup.json'))).toBe(false);

    await store.append(
      'erasure-memory-item-1',
      [
        {
          type: 'SubjectErased',
          data: {
            subject: subjects.memoryItem(1),
            kind: 'memory_item',
            id: 1,
            organization_id: 1,
            erased_by: 'operator:test',
            reason: null,
            keys_destroyed: 1,
            erased_at: '2026-11-27T00:00:00.000Z',
          },
          metadata: operatorMetadata,
        },
      ],
      'no_stream',
    );
    const recorded = join(temp.dir, 'recorded');
    await backupDataDir(data, recorded);
    expect((await verifyEventFile(recorded)).keys).toEqual({
      keys_needed: 2,
      keys_erased: 1,
      keys_missing: [],
      keys_missing_count: 0,
    });
  });

  it('a key of a subject erased with another (a memory item’s creating proposal) is erased, not missing', async () => {
    await store.append(
      'memory-proposal-9',
      [
        {
          type: 'MemoryProposalCaptured',
          data: {
            proposal_id: 9,
            organization_id: 1,
            target_memory_item_id: null,
            title: 'P',
            content: 'Proposed.',
          },
          metadata: operatorMetadata,
        },
      ],
      'no_stream',
    );
    keys.destroySubjects([subjects.memoryItem(2), subjects.proposal(9)], 1);
    const erasedWith = (linked: string[]) => ({
      type: 'SubjectErased',
      data: {
        subject: subjects.memoryItem(2),
        kind: 'memory_item',
        id: 2,
        organization_id: 1,
        erased_by: 'operator:test',
        reason: null,
        linked_subjects: linked,
        keys_destroyed: 2,
        erased_at: '2026-11-27T00:00:00.000Z',
      },
      metadata: operatorMetadata,
    });
    await store.append('erasure-memory-item-2', [erasedWith([subjects.proposal(9)])], 'no_stream');
    const backup = join(temp.dir, 'linked');
    await backupDataDir(data, backup);
    expect((await verifyEventFile(backup)).keys).toEqual({
      keys_needed: 3,
      keys_erased: 3,
      keys_missing: [],
      keys_missing_count: 0,
    });
  });

  it('a revision appended after its item was erased is sealed under a key that counts as erased, not missing', async () => {
    // Item 1 was erased (recorded) above; a writer that read it before appends a revision after.
    const revision = memoryItemCreated(1);
    await store.append(
      'memory-item-1',
      [{ ...revision, type: 'MemoryItemRevised', data: { ...revision.data, revision: 2 } }],
      0,
    );
    const backup = join(temp.dir, 'after-erasure');
    await backupDataDir(data, backup);
    expect((await verifyEventFile(backup)).keys).toEqual({
      keys_needed: 4,
      keys_erased: 4,
      keys_missing: [],
      keys_missing_count: 0,
    });
  });
});
