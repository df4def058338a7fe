import { ArchiveMemoryItemCommand } from '../../src/commands/memory/archive-memory-item.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY, ingest } from '../support/memory-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';

const RESULT_KEYS = [
  'memory_item_id',
  'memory_source_id',
  'memory_chunk_ids',
  'summary',
  'type',
  'source_label',
  'source_type',
  'review_status',
  'lifecycle_status',
  'freshness_category',
].sort();

describe('memory search and fetch (spec §4.1, §4.2, §2.1, §2.2)', () => {
  let t: TestApp;
  let a: { org: number; token: string; other: string; items: number[] };
  let b: { org: number; token: string; items: number[] };

  beforeAll(async () => {
    t = await startTestApp();
    const orgA = await createOrganization(t.commands, 'Alpha');
    const orgB = await createOrganization(t.commands, 'Beta');
    const content = '# Saturday hours\n\nThe clinic opens on Saturday from 9:00 to 13:00. Walk-ins welcome.';
    const a1 = await ingest(t.commands, orgA.organization_id, 'Opening hours', content);
    const a2 = await ingest(
      t.commands,
      orgA.organization_id,
      'Parking',
      'Free parking behind the clinic building.',
    );
    const b1 = await ingest(t.commands, orgB.organization_id, 'Opening hours', content);
    a = {
      org: orgA.organization_id,
      token: (await createConnector(t.commands, orgA.organization_id, ALL_MEMORY)).token,
      other: (await createConnector(t.commands, orgA.organization_id, ['memory_save'])).token,
      items: [a1.memory_item_id, a2.memory_item_id],
    };
    b = {
      org: orgB.organization_id,
      token: (await createConnector(t.commands, orgB.organization_id, ALL_MEMORY)).token,
      items: [b1.memory_item_id],
    };
  });
  afterAll(async () => t.close());

  const search = (token: string, body: unknown) =>
    http(t.baseUrl, 'POST', `${MEMORY}/search`, { token, body });

  it('answers the spec shape field by field and records a trace', async () => {
    const res = await search(a.token, { query: 'saturday opening', limit: 5 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['ok', 'results', 'trace_id']);
    expect(res.body.ok).toBe(true);
    expect(Number.isInteger(res.body.trace_id) && res.body.trace_id > 0).toBe(true);
    expect(res.body.results).toHaveLength(1);
    const [result] = res.body.results;
    expect(Object.keys(result).sort()).toEqual(RESULT_KEYS);
    expect(result).toEqual({
      memory_item_id: a.items[0],
      memory_source_id: expect.any(Number),
      memory_chunk_ids: [expect.any(Number)],
      summary: 'The clinic opens on Saturday from 9:00 to 13:00. Walk-ins welcome.',
      type: 'faq',
      source_label: 'Clinic website',
      source_type: 'document',
      review_status: 'confirmed',
      lifecycle_status: 'active',
      freshness_category: 'current',
    });
    const trace = await t.stores.eventStore.readStream(`recall-trace-${res.body.trace_id}`);
    expect(trace[0]).toMatchObject({
      type: 'RecallTraceRecorded',
      data: {
        query: 'saturday opening',
        result_columns: {
          memory_item_ids: [a.items[0]],
          memory_source_ids: [res.body.results[0].memory_source_id],
          revisions: [1],
          memory_chunk_ids: [res.body.results[0].memory_chunk_ids],
          methods: ['lexical'],
        },
      },
      metadata: { organization_id: String(a.org) },
    });
    // Stored as columns only (recall-results.ts), each score a positive number.
    expect(trace[0].data).not.toHaveProperty('results');
    const { scores } = (trace[0].data as { result_columns: { scores: number[] } }).result_columns;
    expect(scores).toHaveLength(1);
    expect(scores[0]).toBeGreaterThan(0);
  });

  it('isolates organizations with identical content', async () => {
    const fromA = await search(a.token, { query: 'Saturday hours' });
    const fromB = await search(b.token, { query: 'Saturday hours' });
    expect(fromA.body.results.map((r: { memory_item_id: number }) => r.memory_item_id)).toEqual([a.items[0]]);
    expect(fromB.body.results.map((r: { memory_item_id: number }) => r.memory_item_id)).toEqual([b.items[0]]);
  });

  it('returns a context package only when asked', async () => {
    const res = await search(a.token, { query: 'clinic', include_context_package: true });
    const pkg = res.body.context_package;
    expect(Object.keys(pkg).sort()).toEqual(['context', 'sections', 'summary']);
    expect(pkg.context).toMatch(/^\[1\] /);
    expect(pkg.context.length).toBeLessThanOrEqual(4000);
    expect(pkg.summary).toMatch(/^2 results from 2 sources for "clinic"/);
    expect(pkg.sections.faq.map((s: { n: number }) => s.n)).toEqual([1, 2]);
    expect((await search(a.token, { query: 'clinic' })).body.context_package).toBeUndefined();
  });

  it('enforces limit bounds (1-100, default 10) with 422, never a clamp', async () => {
    for (const limit of [0, 101, 1e9, -1, 2.5, '5', null]) {
      const res = await search(a.token, { query: 'clinic', limit });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain('limit');
    }
    expect((await search(a.token, { query: 'clinic', limit: 1 })).body.results).toHaveLength(1);
  });

  it('rejects bad bodies with 4xx JSON errors and records nothing', async () => {
    const head = await t.stores.eventStore.headPosition();
    const cases: Array<[unknown, number]> = [
      [{}, 422],
      [{ query: '' }, 422],
      [{ query: '   ' }, 422],
      [{ query: 42 }, 422],
      [{ query: 'x'.repeat(2001) }, 422],
      [{ query: 'clinic', unknown: 1 }, 422],
      [{ query: 'clinic', visibility: 'public' }, 422],
      [{ query: 'clinic', include_context_package: 'yes' }, 422],
      [[1, 2], 422],
    ];
    for (const [body, status] of cases) expect((await search(a.token, body)).status).toBe(status);
    const proto = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
      token: a.token,
      rawBody: '{"query":"clinic","__proto__":{"admin":true}}',
    });
    expect(proto.status).toBe(422);
    const utf8 = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
      token: a.token,
      rawBody: Buffer.concat([Buffer.from('{"query":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    });
    expect(utf8.status).toBe(400);
    expect(await t.stores.eventStore.headPosition()).toBe(head);
  });

  it('needs memory_search (403) and a token (401)', async () => {
    expect((await search(a.other, { query: 'clinic' })).status).toBe(403);
    expect((await http(t.baseUrl, 'POST', `${MEMORY}/search`, { body: { query: 'clinic' } })).status).toBe(
      401,
    );
    expect((await http(t.baseUrl, 'GET', `${MEMORY}/items/${a.items[0]}`, { token: a.other })).status).toBe(
      403,
    );
  });

  it('fetches one item with content; other tenants and unknown ids get the same 404', async () => {
    const own = await http(t.baseUrl, 'GET', `${MEMORY}/items/${a.items[0]}`, { token: a.token });
    expect(own.status).toBe(200);
    // Exactly the §2.1 fields plus content (spec §4.2): no `ok` envelope.
    expect(Object.keys(own.body).sort()).toEqual([...RESULT_KEYS, 'content'].sort());
    expect(own.body.content).toContain('The clinic opens on Saturday');
    const other = await http(t.baseUrl, 'GET', `${MEMORY}/items/${b.items[0]}`, { token: a.token });
    const unknown = await http(t.baseUrl, 'GET', `${MEMORY}/items/999999999`, { token: a.token });
    const malformed = await http(t.baseUrl, 'GET', `${MEMORY}/items/abc`, { token: a.token });
    for (const res of [other, unknown, malformed]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(unknown.body);
    }
  });

  it('reports freshness: expired items leave search, stale items say so', async () => {
    const org = await createOrganization(t.commands, 'Fresh');
    const token = (await createConnector(t.commands, org.organization_id, ALL_MEMORY)).token;
    const expired = await ingest(
      t.commands,
      org.organization_id,
      'Winter offer',
      'Whitening discount zebra.',
      {
        expires_at: '2020-01-01T00:00:00Z',
      },
    );
    const stale = await ingest(t.commands, org.organization_id, 'Old policy', 'Cancellation policy zebra.', {
      effective_at: '2019-01-01T00:00:00Z',
    });
    const res = await search(token, { query: 'zebra' });
    expect(res.body.results.map((r: { memory_item_id: number }) => r.memory_item_id)).toEqual([
      stale.memory_item_id,
    ]);
    expect(res.body.results[0].freshness_category).toBe('stale');
    const fetched = await http(t.baseUrl, 'GET', `${MEMORY}/items/${expired.memory_item_id}`, { token });
    expect(fetched.body.freshness_category).toBe('expired');
  });

  it('a revision or an archive is visible to the very next search (no stale cached item)', async () => {
    const org = await createOrganization(t.commands, 'Cache');
    const token = (await createConnector(t.commands, org.organization_id, ALL_MEMORY)).token;
    const key = { document_key: 'cache-doc' };
    const first = await ingest(t.commands, org.organization_id, 'Kiwi', 'Kiwi appointments on Tuesday.', key);
    expect((await search(token, { query: 'kiwi' })).body.results[0].summary).toBe(
      'Kiwi appointments on Tuesday.',
    );
    await ingest(t.commands, org.organization_id, 'Kiwi', 'Kiwi appointments on Thursday.', key);
    const revised = await search(token, { query: 'kiwi' });
    expect(revised.body.results.map((r: { memory_item_id: number }) => r.memory_item_id)).toEqual([
      first.memory_item_id,
    ]);
    expect(revised.body.results[0].summary).toBe('Kiwi appointments on Thursday.');
    await t.commands.execute(
      new ArchiveMemoryItemCommand(org.organization_id, first.memory_item_id, operatorContext('t')),
    );
    expect((await search(token, { query: 'kiwi' })).body.results).toEqual([]);
  });
});
