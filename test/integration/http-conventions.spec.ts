import { ProbeModule } from '../support/probe.module';
import { http, startTestApp, type TestApp } from '../support/test-app';

describe('HTTP conventions (one error shape, explicit statuses)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CAIRN_MAX_BODY_BYTES: '4096' }, undefined, [ProbeModule]);
  });
  afterAll(async () => t.close());

  const expectError = (res: { status: number; body: unknown }, status: number, code: string): void => {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({
      ok: false,
      error: { code, message: expect.any(String), details: expect.any(Array) },
    });
  };

  it('GET /health answers liveness', async () => {
    expect(await http(t.baseUrl, 'GET', '/health')).toMatchObject({
      status: 200,
      body: { ok: true, status: 'alive' },
    });
  });

  it('GET /ready reports stores and projection lag', async () => {
    const res = await http(t.baseUrl, 'GET', '/ready');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      status: 'ready',
      engines: { event_store: 'sqlite', read_store: 'sqlite', search_index: 'sqlite-fts5' },
      stores: { event_store: 'ok', read_store: 'ok', search_index: 'ok' },
    });
    expect(res.body.projections.map((p: { name: string }) => p.name)).toEqual([
      'organizations',
      'chatbots',
      'connectors',
      'memory',
      'memory-usage',
      'memory-proposals',
      'conversations',
      'replies',
      'assistant-tools',
      'client-pages',
    ]);
    for (const p of res.body.projections)
      expect(p).toEqual({
        name: p.name,
        position: expect.any(Number),
        head: expect.any(Number),
        lag: expect.any(Number),
        running: expect.any(Boolean),
      });
  });

  it('unknown route → 404 JSON', async () => {
    expectError(await http(t.baseUrl, 'GET', '/no/such/route'), 404, 'not_found');
    expectError(await http(t.baseUrl, 'DELETE', '/health'), 404, 'not_found');
  });

  it('malformed JSON → 400', async () => {
    expectError(
      await http(t.baseUrl, 'POST', '/probe/open', { rawBody: '{"name": "a",' }),
      400,
      'malformed_json',
    );
    expectError(await http(t.baseUrl, 'POST', '/probe/open', { rawBody: '' }), 400, 'malformed_json');
  });

  it('invalid UTF-8 → 400, never silently replaced', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"name": "'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('", "count": 1}'),
    ]);
    expectError(await http(t.baseUrl, 'POST', '/probe/open', { rawBody: bytes }), 400, 'invalid_utf8');
  });

  it('__proto__, constructor and prototype keys → 422 like any unknown field', async () => {
    expectError(
      await http(t.baseUrl, 'POST', '/probe/open', { rawBody: '{"name":"a","count":1,"__proto__":{"x":1}}' }),
      422,
      'validation_failed',
    );
    expectError(
      await http(t.baseUrl, 'POST', '/probe/open', {
        rawBody: '{"name":"a","count":1,"constructor":{"prototype":{"x":1}}}',
      }),
      422,
      'validation_failed',
    );
    expectError(
      await http(t.baseUrl, 'POST', '/probe/open', { rawBody: '{"name":"a","count":1,"prototype":1}' }),
      422,
      'validation_failed',
    );
  });

  it('a body over the configured limit → 413', async () => {
    const res = await http(t.baseUrl, 'POST', '/probe/open', {
      body: { name: 'a', count: 1, pad: 'x'.repeat(5000) },
    });
    expectError(res, 413, 'payload_too_large');
  });

  it('a non-JSON content type → 415', async () => {
    const res = await http(t.baseUrl, 'POST', '/probe/open', {
      rawBody: 'name=a',
      headers: { 'content-type': 'text/plain' },
    });
    expectError(res, 415, 'unsupported_media_type');
  });

  it('validation failures → 422 naming every field, unknown fields rejected, no coercion', async () => {
    const res = await http(t.baseUrl, 'POST', '/probe/open', { body: { name: '', count: '5', extra: true } });
    expectError(res, 422, 'validation_failed');
    const fields = res.body.error.details.map((d: { field: string }) => d.field);
    expect(new Set(fields)).toEqual(new Set(['name', 'count', 'extra']));
    expect((await http(t.baseUrl, 'POST', '/probe/open', { body: { name: 'ok', count: 3 } })).body).toEqual({
      ok: true,
      echo: { name: 'ok', count: 3 },
    });
  });

  it('serves an OpenAPI 3.1 document and the reference page', async () => {
    const doc = await http(t.baseUrl, 'GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/health', '/ready', '/app/api/tool-connectors/v1/connector']),
    );
    const page = await fetch(`${t.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Cairn API reference');
  });
});
