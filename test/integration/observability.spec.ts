/**
 * Issue 20: operators see what happens. One JSON access line per request (method, route, status, duration, request
 * id; the client's X-Request-Id honoured and returned), one line per model call failure and per reply outcome
 * (codes, role, provider status, latency; never the question, memory content or the token), a start-up warning when
 * replies cannot work, and Prometheus metrics at /metrics only when CAIRN_METRICS=on.
 */
import { loadConfig } from '../../src/config/config';
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY } from '../support/memory-fixtures';
import { reply, startModelServer, type ModelServer } from '../support/model-server';
import { MODEL_ENV } from '../support/reply-fixtures';
import { QUESTION, createReplyTenant, type ReplyTenant } from '../support/reply-tenant';
import { http, startTestApp, type TestApp } from '../support/test-app';

/** Collects the JSON log lines an app writes. */
class LogSink {
  readonly lines: string[] = [];
  write(chunk: string): void {
    this.lines.push(...chunk.split('\n').filter((line) => line.trim() !== ''));
  }
  parsed(): Array<Record<string, unknown>> {
    return this.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }
  where(fields: Record<string, unknown>): Array<Record<string, unknown>> {
    return this.parsed().filter((line) => Object.entries(fields).every(([k, v]) => line[k] === v));
  }
}

/** The value of one sample of a metric in Prometheus text (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.split(' ').at(-1));
  }
  return 0;
}

describe('logs and metrics (issue 20)', () => {
  const sink = new LogSink();
  let model: ModelServer;
  let t: TestApp;
  let tenant: ReplyTenant;

  beforeAll(async () => {
    model = await startModelServer();
    t = await startTestApp(
      { ...MODEL_ENV, OPENAI_BASE_URL: model.url, CAIRN_METRICS: 'on', CAIRN_MODEL_TIMEOUT_MS: '1500' },
      undefined,
      [],
      undefined,
      sink,
    );
    tenant = await createReplyTenant(t);
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });
  beforeEach(() => model.script.reset());

  it('writes one access line per request and answers the request id', async () => {
    const given = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
      token: tenant.token,
      body: { query: 'secret-looking query words' },
      headers: { 'x-request-id': 'client-id.42' },
    });
    expect(given.status).toBe(200);
    expect(given.headers.get('x-request-id')).toBe('client-id.42');
    const lines = sink.where({ msg: 'request', request_id: 'client-id.42' });
    expect(lines).toEqual([
      {
        level: 'info',
        time: expect.any(String),
        pid: process.pid,
        request_id: 'client-id.42',
        method: 'POST',
        route: '/app/api/tool-connectors/v1/memory/search',
        status: 200,
        duration_ms: expect.any(Number),
        msg: 'request',
      },
    ]);
    // A missing or unusable id gets a fresh one; unknown paths are one route, not one per path.
    const fresh = await http(t.baseUrl, 'GET', '/no/such/path?x=1', {
      headers: { 'x-request-id': 'bad id\u00e9' },
    });
    const id = fresh.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sink.where({ request_id: id })).toEqual([
      expect.objectContaining({ method: 'GET', route: 'unmatched', status: 404 }),
    ]);
    expect(sink.lines.join('\n')).not.toContain('secret-looking');
    expect(sink.lines.join('\n')).not.toContain(tenant.token);
    // What the request appended carries its id as the correlation id: events, logs and the client agree.
    const appended = (await t.stores.eventStore.readAll()).filter(
      (event) => event.metadata.correlation_id === 'client-id.42',
    );
    expect(appended.map((event) => event.type)).toEqual(['RecallTraceRecorded']);
  });

  it('logs a failed model call and the reply outcome as JSON lines, and counts them in /metrics', async () => {
    const before = (await http(t.baseUrl, 'GET', '/metrics')).body as string;
    model.script.draft(reply.status(500));
    const res = await tenant.request(tenant.body('model-500'));
    expect(res.body.system_status.code).toBe('ai_temporarily_unavailable');
    const failures = sink.where({ event: 'model_call_failed' });
    expect(failures.at(-1)).toEqual({
      level: 'warn',
      time: expect.any(String),
      pid: process.pid,
      request_id: expect.any(String),
      event: 'model_call_failed',
      role: 'composer',
      model: 'test-composer',
      code: 'server_error',
      provider_status: 500,
      latency_ms: expect.any(Number),
      msg: 'model call failed: composer server_error',
    });
    const outcomes = sink.where({ event: 'reply_outcome', reply_id: res.body.reply_id });
    expect(outcomes).toEqual([
      {
        level: 'warn',
        time: expect.any(String),
        pid: process.pid,
        request_id: expect.any(String),
        event: 'reply_outcome',
        code: 'ai_temporarily_unavailable',
        reply_id: res.body.reply_id,
        organization_id: tenant.organization_id,
        connector_id: tenant.connector_id,
        attempt: 1,
        latency_ms: expect.any(Number),
        msg: 'reply failed: ai_temporarily_unavailable',
      },
    ]);
    // The failure lines carry the id of the request they happened in, as do the events the reply appended.
    expect(failures.at(-1)!.request_id).toBe(res.headers.get('x-request-id'));
    expect(outcomes[0]!.request_id).toBe(res.headers.get('x-request-id'));
    const appended = (await t.stores.eventStore.readAll()).filter(
      (event) => event.metadata.correlation_id === res.headers.get('x-request-id'),
    );
    expect(appended.map((event) => event.type)).toEqual(
      expect.arrayContaining(['ReplyRequested', 'ReplyFailed']),
    );
    const access = sink.where({ msg: 'request', request_id: outcomes[0]!.request_id });
    expect(access).toEqual([
      expect.objectContaining({ route: '/app/api/tool-connectors/v1/assistant/replies' }),
    ]);
    expect(sink.lines.join('\n')).not.toContain(QUESTION);

    const after = (await http(t.baseUrl, 'GET', '/metrics')).body as string;
    const delta = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(delta('cairn_reply_outcomes_total', { code: 'ai_temporarily_unavailable' })).toBe(1);
    expect(
      delta('cairn_model_call_duration_seconds_count', { role: 'composer', outcome: 'server_error' }),
    ).toBe(1);
    expect(
      delta('cairn_http_requests_total', {
        method: 'POST',
        route: '/app/api/tool-connectors/v1/assistant/replies',
        status: '200',
      }),
    ).toBe(1);
    expect(delta('cairn_event_appends_total', { outcome: 'ok' })).toBeGreaterThanOrEqual(2);
    expect(sample(after, 'cairn_event_store_head_position')).toBe(await t.stores.eventStore.headPosition());
    expect(after).toMatch(/^cairn_projection_position\{projection="memory"\} \d+$/m);
    expect(after).toMatch(/^cairn_projection_lag_events\{projection="memory"\} \d+$/m);
    expect(after).toContain('cairn_http_request_duration_seconds_bucket');
    expect(after).toContain('# TYPE cairn_rate_limit_refusals_total counter');
  });

  it('logs a completed reply as info with its code', async () => {
    const res = await tenant.request(tenant.body('model-ok'));
    expect(res.body.ok).toBe(true);
    expect(sink.where({ event: 'reply_outcome', reply_id: res.body.reply_id })).toEqual([
      expect.objectContaining({ level: 'info', code: 'completed', msg: 'reply completed' }),
    ]);
    expect(sink.where({ event: 'model_call_failed', request_id: res.headers.get('x-request-id') })).toEqual(
      [],
    );
  });
});

describe('start-up warning and metrics switch (issue 20)', () => {
  it('warns at start when replies cannot work, and serves no /metrics by default', async () => {
    const sink = new LogSink();
    const t = await startTestApp({}, undefined, [], undefined, sink);
    try {
      expect(sink.where({ code: 'replies_unavailable' })).toEqual([
        expect.objectContaining({
          level: 'warn',
          missing: ['CAIRN_COMPOSER_MODEL', 'CAIRN_REVIEWER_MODEL'],
        }),
      ]);
      const metrics = await http(t.baseUrl, 'GET', '/metrics');
      expect(metrics.status).toBe(404);
      expect(metrics.body).toEqual({
        ok: false,
        error: { code: 'not_found', message: 'no such resource', details: [] },
      });
    } finally {
      await t.close();
    }
  });

  it('counts rate-limit refusals', async () => {
    const t = await startTestApp({ CAIRN_METRICS: 'on', CAIRN_RATE_LIMIT_SEARCH: '1' });
    try {
      const org = (await createOrganization(t.commands, 'Metrics')).organization_id;
      const { token } = await createConnector(t.commands, org, ALL_MEMORY);
      const before = sample(
        (await http(t.baseUrl, 'GET', '/metrics')).body,
        'cairn_rate_limit_refusals_total',
        {
          limit: 'search',
        },
      );
      for (let i = 0; i < 3; i++)
        await http(t.baseUrl, 'POST', `${MEMORY}/search`, { token, body: { query: 'x' } });
      const after = sample(
        (await http(t.baseUrl, 'GET', '/metrics')).body,
        'cairn_rate_limit_refusals_total',
        {
          limit: 'search',
        },
      );
      expect(after - before).toBe(2);
    } finally {
      await t.close();
    }
  });

  it('validates CAIRN_METRICS and CAIRN_LOG_LEVEL', () => {
    expect(loadConfig({}).metrics).toBe(false);
    expect(loadConfig({ CAIRN_METRICS: 'on' }).metrics).toBe(true);
    expect(loadConfig({}).logLevel).toBe('info');
    expect(() => loadConfig({ CAIRN_METRICS: 'yes' })).toThrow(/CAIRN_METRICS must be one of on, off/);
    expect(() => loadConfig({ CAIRN_LOG_LEVEL: 'loud' })).toThrow(/CAIRN_LOG_LEVEL/);
  });
});
