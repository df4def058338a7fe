import { StreamAuditor } from '../../../src/audit/stream-auditor';
import type { NewEvent } from '../../../src/infrastructure/event-store/event-store.port';
import {
  RETENTION_EVENT,
  RETENTION_STREAM,
  stubHash,
} from '../../../src/infrastructure/event-store/pruned-traces';
import { SqliteEventStore } from '../../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite, type SqliteDatabase } from '../../../src/infrastructure/sqlite/sqlite-connection';

const metadata = {
  organization_id: '1',
  correlation_id: 'c',
  causation_id: null,
  actor: 'connector:1',
  occurred_at: '2026-01-01T00:00:00.000Z',
  schema_version: 1,
};

const trace = (id: number): NewEvent => ({
  type: 'RecallTraceRecorded',
  data: {
    trace_id: id,
    organization_id: 1,
    connector_id: 1,
    client_key: 'k',
    query: `query ${id}`,
    visibility: null,
    limit: 10,
    results: [],
    index_revision: 'r',
    purpose: 'search',
  },
  metadata,
});

const stub = (id: number, at: string) => ({
  trace_id: id,
  organization_id: 1,
  connector_id: 1,
  purpose: 'search',
  pruned: true,
  pruned_at: at,
});

/**
 * A retention listing's stub hashes (pruned-traces.ts): the audit holds each pruned trace's stub to the hash its
 * listing gives; a listing written before stub hashes existed (positions only) still vouches for its positions.
 */
describe('pruned recall traces against their listing', () => {
  let db: SqliteDatabase;
  let store: SqliteEventStore;
  beforeEach(async () => {
    db = openSqlite({ path: ':memory:' });
    store = new SqliteEventStore(db);
    await store.append('recall-trace-1', [trace(1)], 'no_stream');
    await store.append('recall-trace-2', [trace(2)], 'no_stream');
  });
  afterEach(async () => {
    await store.close();
    db.close();
  });

  async function prune(listing: Record<string, unknown>, written: Array<[number, object]>): Promise<void> {
    await store.append(RETENTION_STREAM, [{ type: RETENTION_EVENT, data: listing, metadata }], 'any');
    await store.replaceTraceData(written.map(([position, data]) => ({ position, data: { ...data } })));
  }
  const hashOf = async (position: number, data: object) => {
    const [row] = await store.readAll({ after_position: position - 1, max_count: 1 });
    return stubHash(row, { ...data });
  };
  const verify = () => new StreamAuditor(store).verify();

  it("verifies stubs their listing's hashes name, and a listing of positions only (written before hashes)", async () => {
    const hashes = [await hashOf(1, stub(1, 'T1')), await hashOf(2, stub(2, 'T1'))];
    await prune({ recorded_before: 'T', positions: [1, 2], stub_hashes: hashes }, [
      [1, stub(1, 'T1')],
      [2, stub(2, 'T1')],
    ]);
    expect((await verify()).first_break).toBeNull();
    await store.append('recall-trace-3', [trace(3)], 'no_stream');
    await prune({ recorded_before: 'T', positions: [4] }, [[4, stub(3, 'T2')]]);
    expect((await verify()).first_break).toBeNull();
  });

  it('a stub other than the listed one: pruned_stub_edited; one a listing of a stopped run names otherwise, then a later one names: verifies', async () => {
    const listed = await hashOf(2, stub(2, 'T1'));
    await prune({ recorded_before: 'T', positions: [2], stub_hashes: [listed] }, [
      [2, { ...stub(2, 'T1'), connector_id: 9 }],
    ]);
    expect((await verify()).first_break).toMatchObject({
      stream: 'recall-trace-2',
      revision: 0,
      position: 2,
      reason: 'pruned_stub_edited',
    });
    // A run listed trace 1 and stopped before writing its stub; the next run lists it again and writes it.
    const first = await hashOf(1, stub(1, 'T1'));
    const second = await hashOf(1, stub(1, 'T2'));
    await store.append(
      RETENTION_STREAM,
      [
        {
          type: RETENTION_EVENT,
          data: { recorded_before: 'T', positions: [1], stub_hashes: [first] },
          metadata,
        },
      ],
      'any',
    );
    await prune({ recorded_before: 'T', positions: [1], stub_hashes: [second] }, [[1, stub(1, 'T2')]]);
    const report = await verify();
    expect(report.first_break).toMatchObject({ stream: 'recall-trace-2', reason: 'pruned_stub_edited' });
    // Listed with a malformed hash list: no stub matches it.
    const otherDb = openSqlite({ path: ':memory:' });
    const other = new SqliteEventStore(otherDb);
    await other.append('recall-trace-1', [trace(1)], 'no_stream');
    await other.append(
      RETENTION_STREAM,
      [{ type: RETENTION_EVENT, data: { recorded_before: 'T', positions: [1], stub_hashes: [7] }, metadata }],
      'any',
    );
    await other.replaceTraceData([{ position: 1, data: stub(1, 'T1') }]);
    expect((await new StreamAuditor(other).verify()).first_break).toMatchObject({
      reason: 'pruned_stub_edited',
    });
    await other.close();
    otherDb.close();
  });
});
