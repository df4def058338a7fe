import { SystemClock } from '../../../src/common/clock';
import { systemContext } from '../../../src/commands/shared/command-context';
import { Consistency } from '../../../src/commands/shared/consistency';
import type { Decider } from '../../../src/commands/shared/decider';
import { StreamCommandExecutor } from '../../../src/commands/shared/stream-command-executor';
import type { DomainEvent } from '../../../src/events/domain-event';
import { SqliteEventStore } from '../../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';

type Claimed = DomainEvent & { type: 'Claimed'; data: { by: string } };
type ClaimState = { by: string | null };

/** A stream claimed once: the first claim wins, later ones change nothing. */
const claimDecider: Decider<{ by: string }, ClaimState, Claimed> = {
  initialState: () => ({ by: null }),
  evolve: (_state, event) => ({ by: event.data.by }),
  decide: (command, state) => (state.by === null ? [{ type: 'Claimed', data: { by: command.by } }] : []),
};

class Immediate extends Consistency {
  async waitFor(): Promise<boolean> {
    return true;
  }
}

describe('StreamCommandExecutor.executeNew (streams named by a freshly reserved id)', () => {
  let db: SqliteDatabase;
  let store: SqliteEventStore;
  let executor: StreamCommandExecutor;
  const options = { organizationId: null, waitFor: [] };

  beforeEach(() => {
    db = openSqlite({ path: ':memory:' });
    store = new SqliteEventStore(db);
    executor = new StreamCommandExecutor(store, new SystemClock(), new Immediate());
  });

  afterEach(async () => {
    await store.close();
    db.close();
  });

  it('appends the first event without reading the stream', async () => {
    const reads = jest.spyOn(store, 'readStream');
    const executed = await executor.executeNew(
      'claim-1',
      claimDecider,
      { by: 'a' },
      systemContext('t'),
      options,
    );
    expect(reads).not.toHaveBeenCalled();
    expect(executed.events).toEqual([{ type: 'Claimed', data: { by: 'a' } }]);
    const stored = await store.readStream('claim-1');
    expect(stored.map((event) => [event.revision, event.data])).toEqual([[0, { by: 'a' }]]);
  });

  it('when the stream exists after all, reads it and decides on what it holds (nothing appended twice)', async () => {
    await executor.execute('claim-2', claimDecider, { by: 'first' }, systemContext('t'), options);
    const executed = await executor.executeNew(
      'claim-2',
      claimDecider,
      { by: 'second' },
      systemContext('t'),
      options,
    );
    expect(executed.events).toEqual([]);
    expect(executed.state).toEqual({ by: 'first' });
    const stored = await store.readStream('claim-2');
    expect(stored.map((event) => event.data)).toEqual([{ by: 'first' }]);
  });
});
