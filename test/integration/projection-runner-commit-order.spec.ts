import { SqliteEventStore } from '../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import type { RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import { SqliteReadStore } from '../../src/infrastructure/read-store/sqlite/sqlite-read-store';
import { SqliteSearchIndex } from '../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite, type SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';
import type { Projection, ProjectionContext } from '../../src/projections/projection';
import { ProjectionRunner } from '../../src/projections/projection-runner';
import { makeTempDir } from '../support/temp-dir';
import { meta } from '../support/test-projections';

/**
 * A step calls its commit before it writes the search index (the commit compresses its documents meanwhile), but
 * the commit's writes wait for the search index's: a crash between the two must replay the batch into both.
 */
describe('projection runner: a step commits after its search writes', () => {
  const temp = makeTempDir();
  const dbs: SqliteDatabase[] = [];
  const runners: ProjectionRunner[] = [];

  afterAll(async () => {
    for (const runner of runners) await runner.stop();
    for (const db of dbs) db.close();
    temp.cleanup();
  });

  it("commits a batch's read models and checkpoint only after its search writes, and nothing of it when they fail", async () => {
    const db = openSqlite({ path: `${temp.dir}/cairn.sqlite` });
    dbs.push(db);
    const events = new SqliteEventStore(db);
    const reads = new SqliteReadStore(db);
    const search = new SqliteSearchIndex(db);
    // Runbooks of eight sections each: 24 of them are over the deflate thread's threshold in one batch.
    const section = (n: number, s: number) =>
      `Section ${s} of runbook ${n}: fail the primary over to the replica, then drain the queue. `.repeat(6);
    const noting: Projection = {
      name: 'noting',
      version: 1,
      collections: [{ name: 'runbooks', indexes: [], packed: ['chunks'] }],
      usesSearchIndex: true,
      eventTypes: new Set(['Noted']),
      async apply(event: RecordedEvent, context: ProjectionContext) {
        const id = `runbook-${event.position}`;
        const chunks = Array.from({ length: 8 }, (_, s) => ({ text: section(event.position, s) }));
        context.put('runbooks', { id, chunks });
        context.indexDocument({ id, organization_id: 'o', title: id, body: chunks[0].text, fields: {} });
      },
    };
    for (let n = 0; n < 24; n += 1)
      await events.append(`runbook-${n}`, [{ type: 'Noted', data: {}, metadata: meta() }], 'no_stream');
    const head = await events.headPosition();
    const committed = async () => ({
      runbooks: (await reads.find('runbooks')).total,
      checkpoint: (await reads.getCheckpoint('noting'))?.position ?? 0,
    });
    const seen: Array<{ runbooks: number; checkpoint: number }> = [];
    let failures = 1;
    const write = search.write.bind(search);
    jest.spyOn(search, 'write').mockImplementation(async (writes, options) => {
      seen.push(await committed());
      await new Promise((resolve) => setTimeout(resolve, 40));
      seen.push(await committed());
      if (failures-- > 0) throw new Error('the search index is down');
      return write(writes, options);
    });
    const runner = new ProjectionRunner(events, reads, search, [noting], {
      owner: 'noter',
      batchSize: 50,
      pollIntervalMs: 5,
    });
    runners.push(runner);
    runner.start();
    expect(await runner.waitFor(head, 10_000, ['noting'])).toBe(true);
    // Two attempts at the one batch (the first failed): nothing of it was committed while either ran.
    expect(seen).toEqual([
      { runbooks: 0, checkpoint: 0 },
      { runbooks: 0, checkpoint: 0 },
      { runbooks: 0, checkpoint: 0 },
      { runbooks: 0, checkpoint: 0 },
    ]);
    expect(await committed()).toEqual({ runbooks: 24, checkpoint: head });
    expect((await reads.get('runbooks', 'runbook-24'))?.chunks).toEqual(
      Array.from({ length: 8 }, (_, s) => ({ text: section(24, s) })),
    );
    expect(await search.search({ organization_id: 'o', text: 'replica', limit: 50 })).toHaveLength(24);
  });
});
