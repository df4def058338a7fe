/**
 * Bad input on every memory write and search endpoint (issue acceptance: wrong types, missing fields, oversize
 * strings, unknown fields, `__proto__` keys, invalid UTF-8, huge limits): each is a 4xx in the JSON error shape
 * naming the problem, and the event store's head does not move (no trace, no save, no proposal, no usage).
 */
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY, ingest } from '../support/memory-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';

type Endpoint = 'search' | 'save' | 'proposals' | 'usage';

/** A valid body per endpoint (usage's trace is filled in once the fixture search ran). */
const VALID: Record<Endpoint, Record<string, unknown>> = {
  search: { query: 'heron', limit: 5 },
  save: { kind: 'note', title: 'Heron note', content: 'Heron pond.' },
  proposals: { title: 'Heron fact', content: 'Herons nest in spring.' },
  usage: { trace_id: 0, used_item_ids: [0] },
};

/** Per endpoint: a required field, a field whose type can be wrong, and a string field with its bound (if any). */
const FIELDS: Record<Endpoint, { required: string; typed: [string, unknown]; string?: [string, number] }> = {
  search: { required: 'query', string: ['query', 2000], typed: ['limit', '5'] },
  save: { required: 'content', string: ['title', 300], typed: ['visibility', 7] },
  proposals: { required: 'title', string: ['content', 50_000], typed: ['proposed_type', ['fact']] },
  usage: { required: 'trace_id', typed: ['used_item_ids', '1,2'] },
};

interface Case {
  name: string;
  body?: Record<string, unknown>;
  raw?: string | Buffer;
  status: number;
  code: string;
  field?: string;
}

function casesFor(endpoint: Endpoint, valid: Record<string, unknown>): Case[] {
  const { required, string, typed } = FIELDS[endpoint];
  const without = { ...valid };
  delete without[required];
  const json = JSON.stringify(valid);
  const cases: Case[] = [
    { name: 'missing field', body: without, status: 422, code: 'validation_failed', field: required },
    {
      name: 'wrong type',
      body: { ...valid, [typed[0]]: typed[1] },
      status: 422,
      code: 'validation_failed',
      field: typed[0],
    },
    {
      name: 'unknown field',
      body: { ...valid, admin: true },
      status: 422,
      code: 'validation_failed',
      field: 'admin',
    },
    {
      name: '__proto__ key',
      raw: `${json.slice(0, -1)},"__proto__":{"admin":true}}`,
      status: 422,
      code: 'validation_failed',
      field: '__proto__',
    },
    {
      name: 'invalid UTF-8',
      raw: Buffer.concat([
        Buffer.from(`${json.slice(0, -1)},"x":"`),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]),
      status: 400,
      code: 'invalid_utf8',
    },
    { name: 'malformed JSON', raw: json.slice(0, -1), status: 400, code: 'malformed_json' },
    {
      name: 'null for a field',
      body: { ...valid, [typed[0]]: null },
      status: 422,
      code: 'validation_failed',
    },
  ];
  if (string !== undefined) {
    cases.push({
      name: 'oversize string',
      body: { ...valid, [string[0]]: 'x'.repeat(string[1] + 1) },
      status: 422,
      code: 'validation_failed',
      field: string[0],
    });
  }
  if (endpoint === 'search') {
    for (const limit of [100_000, 0, 101, 1.5, -1]) {
      cases.push({
        name: `limit ${limit}`,
        body: { ...valid, limit },
        status: 422,
        code: 'validation_failed',
        field: 'limit',
      });
    }
  }
  if (endpoint === 'usage') {
    cases.push({
      name: 'over 100 ids',
      body: { ...valid, used_item_ids: Array.from({ length: 101 }, (_, n) => n + 1) },
      status: 422,
      code: 'validation_failed',
      field: 'used_item_ids',
    });
  }
  return cases;
}

describe('memory endpoints refuse bad input and record nothing', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    const org = (await createOrganization(t.commands, 'Bad input')).organization_id;
    token = (await createConnector(t.commands, org, ALL_MEMORY)).token;
    const item = await ingest(t.commands, org, 'Herons', 'The heron pond is behind the clinic.');
    const search = await http(t.baseUrl, 'POST', `${MEMORY}/search`, { token, body: { query: 'heron' } });
    VALID.usage = { trace_id: search.body.trace_id, used_item_ids: [item.memory_item_id] };
  });
  afterAll(async () => t.close());

  it.each(['search', 'save', 'proposals', 'usage'] as const)('%s', async (endpoint) => {
    const cases = casesFor(endpoint, VALID[endpoint]);
    expect(cases.length).toBeGreaterThanOrEqual(7);
    for (const c of cases) {
      const before = await t.stores.eventStore.headPosition();
      const res = await http(
        t.baseUrl,
        'POST',
        `${MEMORY}/${endpoint}`,
        c.raw === undefined ? { token, body: c.body } : { token, rawBody: c.raw },
      );
      const seen = { case: c.name, status: res.status, code: res.body?.error?.code };
      expect(seen).toEqual({ case: c.name, status: c.status, code: c.code });
      expect(res.body.ok).toBe(false);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      if (c.field !== undefined) {
        expect({
          case: c.name,
          fields: res.body.error.details.map((d: { field: string }) => d.field),
        }).toEqual({
          case: c.name,
          fields: expect.arrayContaining([c.field]),
        });
      }
      expect({ case: c.name, head: await t.stores.eventStore.headPosition() }).toEqual({
        case: c.name,
        head: before,
      });
    }
    // The valid body is accepted: the refusals above were about the input, not the endpoint.
    const ok = await http(t.baseUrl, 'POST', `${MEMORY}/${endpoint}`, { token, body: VALID[endpoint] });
    expect(ok.status).toBe(200);
  });
});
