/**
 * Issue 20: an operator view of recall-trace volume per connector (`audit:trace-volume ORG [--since ISO]`): every
 * search appends a trace, so a connector searching in a loop shows up with its searches and their bytes.
 */
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY, ingest } from '../support/memory-fixtures';
import { cairn } from '../support/cli';
import { http, startTestApp, type TestApp } from '../support/test-app';
import { makeTempDir } from '../support/temp-dir';

describe('audit:trace-volume (issue 20)', () => {
  jest.setTimeout(120_000);
  const temp = makeTempDir();
  let t: TestApp;
  let org: number;
  let busy: number;
  let quiet: number;
  let otherOrg: number;
  /** Bytes of a connector's traces in this organization, from the event store (read before the server stops). */
  let bytesOf: (connector: number) => number;

  beforeAll(async () => {
    t = await startTestApp({}, temp.dir);
    org = (await createOrganization(t.commands, 'Traces')).organization_id;
    otherOrg = (await createOrganization(t.commands, 'Elsewhere')).organization_id;
    const a = await createConnector(t.commands, org, ALL_MEMORY);
    const b = await createConnector(t.commands, org, ALL_MEMORY);
    const c = await createConnector(t.commands, otherOrg, ALL_MEMORY);
    [busy, quiet] = [a.connector_id, b.connector_id];
    await ingest(t.commands, org, 'Herons', 'The heron pond is behind the clinic.');
    const search = (token: string) =>
      http(t.baseUrl, 'POST', `${MEMORY}/search`, { token, body: { query: 'heron pond' } });
    for (let i = 0; i < 5; i++) expect((await search(a.token)).status).toBe(200);
    expect((await search(b.token)).status).toBe(200);
    expect((await search(c.token)).status).toBe(200);
    // The bytes as stored (the query sealed): what audit:trace-volume counts.
    const traces = (await (t.stores.sealedEventStore ?? t.stores.eventStore).readAll()).filter(
      (e) =>
        e.type === 'RecallTraceRecorded' && (e.data as { organization_id: number }).organization_id === org,
    );
    bytesOf = (connector: number) =>
      traces
        .filter((e) => (e.data as { connector_id: number }).connector_id === connector)
        .reduce(
          (n, e) =>
            n + Buffer.byteLength(JSON.stringify(e.data)) + Buffer.byteLength(JSON.stringify(e.metadata)),
          0,
        );
    await t.close();
  });
  afterAll(() => temp.cleanup());

  it('counts searches and their bytes per connector, busiest first, this organization only', async () => {
    const res = await cairn(temp.dir, 'audit:trace-volume', String(org));
    expect(res.code).toBe(0);
    expect(res.json).toEqual({
      ok: true,
      organization_id: org,
      since: null,
      connectors: [
        {
          connector_id: busy,
          searches: 5,
          bytes: bytesOf(busy),
          first_at: expect.any(String),
          last_at: expect.any(String),
        },
        {
          connector_id: quiet,
          searches: 1,
          bytes: bytesOf(quiet),
          first_at: expect.any(String),
          last_at: expect.any(String),
        },
      ],
      total: { searches: 6, bytes: bytesOf(busy) + bytesOf(quiet) },
    });
    expect(bytesOf(busy)).toBeGreaterThan(5 * 500);
  });

  it('--since leaves older traces out; a bad time is a validation error', async () => {
    const later = await cairn(temp.dir, 'audit:trace-volume', String(org), '--since', '2999-01-01T00:00:00Z');
    expect(later.json).toEqual({
      ok: true,
      organization_id: org,
      since: '2999-01-01T00:00:00.000Z',
      connectors: [],
      total: { searches: 0, bytes: 0 },
    });
    const bad = await cairn(temp.dir, 'audit:trace-volume', String(org), '--since', 'yesterday');
    expect(bad.code).toBe(1);
    expect(bad.json).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
  });
});
