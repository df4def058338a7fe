import { join } from 'node:path';
import { subjects } from '../../../src/infrastructure/erasure/data-key-store.port';
import { SealingEventStore } from '../../../src/infrastructure/erasure/sealing-event-store';
import { SEALING_RULES } from '../../../src/infrastructure/erasure/sealing-policy';
import { SqliteDataKeyStore } from '../../../src/infrastructure/erasure/sqlite-data-key-store';
import type { NewEvent } from '../../../src/infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite } from '../../../src/infrastructure/sqlite/sqlite-connection';
import { memoryItemCreated, operatorMetadata } from '../../support/sealed-event-fixtures';
import { makeTempDir } from '../../support/temp-dir';

/**
 * readAll with `deferred_data` (the projection runner's reads): sealed fields are opened when an event's data is
 * first read, so events a projection skips by type are never decrypted; what is read equals an eager read; and an
 * erasure committed after the read but before the data is first read is honoured.
 */
describe('SealingEventStore: sealed fields opened when first read (deferred_data)', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());
  let n = 0;

  async function storeWithItems(count: number) {
    const dir = join(temp.dir, `case-${++n}`);
    const db = openSqlite({ path: join(dir, 'cairn.sqlite'), synchronous: 'NORMAL' });
    const keys = new SqliteDataKeyStore(join(dir, 'cairn-keys.sqlite'), { bindings: db });
    const store = new SealingEventStore(new SqliteEventStore(db), keys);
    for (let id = 1; id <= count; id++) {
      await store.append(`memory-item-${id}`, [memoryItemCreated(id)], 'no_stream');
      const plain: NewEvent = {
        type: 'OrganizationAgentActivityPaused',
        data: { organization_id: 1, reason: `pause ${id}` },
        metadata: operatorMetadata,
      };
      await store.append(`organization-pause-${id}`, [plain], 'no_stream');
    }
    const close = async () => {
      await store.close();
      db.close();
    };
    return { store, keys, close };
  }

  it('opens no sealed field of an event whose data is never read', async () => {
    const { store, keys, close } = await storeWithItems(5);
    const keyById = jest.spyOn(keys, 'keyById');
    const events = await store.readAll({ after_position: 0, deferred_data: true });
    expect(events.map((e) => e.type)).toEqual(
      Array.from({ length: 5 }, () => ['MemoryItemCreated', 'OrganizationAgentActivityPaused']).flat(),
    );
    const plain = events.filter((e) => e.type !== 'MemoryItemCreated').map((e) => e.data.reason);
    expect(plain).toEqual(['pause 1', 'pause 2', 'pause 3', 'pause 4', 'pause 5']);
    expect(keyById).not.toHaveBeenCalled();
    expect(events[2].data.content).toBe('The secret sentence of item 2.');
    expect(keyById).toHaveBeenCalledTimes(1);
    await close();
  });

  it('reads what an eager read reads, field for field', async () => {
    const { store, close } = await storeWithItems(4);
    const eager = await store.readAll({ after_position: 0 });
    const deferred = await store.readAll({ after_position: 0, deferred_data: true });
    expect(deferred.map((e) => ({ ...e }))).toEqual(eager.map((e) => ({ ...e })));
    expect(JSON.stringify(deferred)).toBe(JSON.stringify(eager));
    await close();
  });

  it('honours an erasure committed between the read and the first read of the data', async () => {
    const { store, keys, close } = await storeWithItems(3);
    const events = await store.readAll({ after_position: 0, deferred_data: true });
    keys.destroySubjects([subjects.memoryItem(2)], 1);
    const erased = SEALING_RULES.MemoryItemCreated.erased;
    expect(erased.content).toBeDefined();
    expect(events[2].data).toMatchObject(erased);
    expect(events[2].data.content).not.toContain('item 2');
    expect(events[0].data.content).toBe('The secret sentence of item 1.');
    await close();
  });

  it('typed reads open sealed fields as readAll does, lazily with deferred_data, and honour an erasure', async () => {
    const { store, keys, close } = await storeWithItems(3);
    const types = new Set(['MemoryItemCreated']);
    const eager = await store.readAll({ after_position: 0 });
    const typed = await store.readAllOfTypes!({ after_position: 0, max_count: 10, types });
    expect(typed).toMatchObject({ through: 6, reached_head: true });
    expect(typed.events.map((e) => ({ ...e }))).toEqual(
      eager.filter((e) => e.type === 'MemoryItemCreated').map((e) => ({ ...e })),
    );
    expect(typed.events[1].data.content).toBe('The secret sentence of item 2.');

    const keyById = jest.spyOn(keys, 'keyById');
    const deferred = await store.readAllOfTypes!({
      after_position: 0,
      max_count: 10,
      types,
      deferred_data: true,
    });
    expect(keyById).not.toHaveBeenCalled();
    keys.destroySubjects([subjects.memoryItem(2)], 1);
    expect(deferred.events[1].data).toMatchObject(SEALING_RULES.MemoryItemCreated.erased);
    expect(deferred.events[0].data.content).toBe('The secret sentence of item 1.');
    await close();
  });

  it('without deferred_data, events stay readable after the store is closed', async () => {
    const { store, close } = await storeWithItems(2);
    const events = await store.readAll({ after_position: 0 });
    await close();
    expect(events[0].data.content).toBe('The secret sentence of item 1.');
  });
});
