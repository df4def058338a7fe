import {
  CairnApiError,
  CairnTimeoutError,
  createCairnClient,
  type CairnClientOptions,
} from '../../clients/typescript/src/index';
import { HttpDouble, rateLimitedBody } from '../support/http-double';

/** The typed client's HTTP retries (clients/typescript/src/retry.ts) against a local HTTP double. */
describe('typed client: retries, timeout and cancellation', () => {
  const double = new HttpDouble();
  const SEARCH = '/app/api/tool-connectors/v1/memory/search';
  const PROPOSE = '/app/api/tool-connectors/v1/memory/proposals';
  let waits: number[];
  const sleep = (ms: number, signal: AbortSignal): Promise<void> => {
    waits.push(ms);
    return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  };
  const client = (options: Partial<CairnClientOptions> = {}) =>
    createCairnClient({ baseUrl: double.baseUrl, token: 'cairn_test', sleep, ...options });
  const saved = { ok: true, memory_source_id: 1, memory_item_id: 2, status: 'confirmed' };
  const note = { kind: 'note' as const, title: 'Call back', content: 'Pat asked for a call back.' };

  beforeAll(() => double.start());
  beforeEach(() => {
    waits = [];
  });
  afterAll(() => double.close());

  it('429: waits the detail’s retry_after_ms, then sends the same request again', async () => {
    double.script(
      { status: 429, headers: { 'retry-after': '1' }, body: rateLimitedBody(250) },
      { status: 200, body: saved },
    );
    const result = await client().save({ ...note, idempotency_key: 'save-1' });
    expect(result).toEqual(saved);
    expect(waits).toEqual([250]);
    expect(double.requests).toHaveLength(2);
    expect(double.requests[1].body).toBe(double.requests[0].body);
    expect(JSON.parse(double.requests[0].body)).toMatchObject({ idempotency_key: 'save-1' });
    expect(double.requests[1].headers.authorization).toBe('Bearer cairn_test');
  });

  it('429 without a detail: waits Retry-After (seconds); a POST without identity is retried too (nothing was done)', async () => {
    double.script(
      { status: 429, headers: { 'retry-after': '2' }, body: {} },
      { status: 200, body: { ok: true } },
    );
    const result = await client().api.POST(PROPOSE, { body: { title: 't', content: 'c' } as never });
    expect(result.response.status).toBe(200);
    expect(waits).toEqual([2000]);
    expect(double.requests).toHaveLength(2);
  });

  it('a 429 that names no delay (too many streams) is not retried', async () => {
    double.script({
      status: 429,
      body: { ok: false, error: { code: 'too_many_streams', message: 'x', details: [] } },
    });
    const result = await client().api.POST(SEARCH, { body: { query: 'x' } });
    expect(result.response.status).toBe(429);
    expect(double.requests).toHaveLength(1);
  });

  it('5xx and network errors: retried with backoff when the POST carries an identity; the save helper adds one', async () => {
    double.script('drop', { status: 503, body: {} }, { status: 200, body: saved });
    const result = await client({ baseDelayMs: 100 }).save(note);
    expect(result).toEqual(saved);
    expect(double.requests).toHaveLength(3);
    const keys = double.requests.map((request) => JSON.parse(request.body).idempotency_key);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    // Exponential with jitter: 50–100 ms, then 100–200 ms.
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(50);
    expect(waits[0]).toBeLessThanOrEqual(100);
    expect(waits[1]).toBeGreaterThanOrEqual(100);
    expect(waits[1]).toBeLessThanOrEqual(200);
  });

  it('a GET is retried after a 5xx; a POST without identity is sent once', async () => {
    double.script({ status: 500, body: {} }, { status: 200, body: { ok: true } });
    const fetched = await client().api.GET('/app/api/tool-connectors/v1/connector');
    expect(fetched.response.status).toBe(200);
    expect(double.requests).toHaveLength(2);

    double.script({
      status: 500,
      body: { ok: false, error: { code: 'internal_error', message: 'x', details: [] } },
    });
    const searched = await client().api.POST(SEARCH, { body: { query: 'x' } });
    expect(searched.response.status).toBe(500);
    expect(double.requests).toHaveLength(1);
    expect(waits).toHaveLength(1);
  });

  it('attempts are bounded: the last answer is the error', async () => {
    double.script({ status: 503, body: { ok: false, error: { code: 'x', message: 'down', details: [] } } });
    const error = await client({ maxAttempts: 4 })
      .save({ ...note, idempotency_key: 'bounded' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CairnApiError);
    expect(error).toMatchObject({ status: 503 });
    expect(double.requests).toHaveLength(4);
    expect(waits).toHaveLength(3);
  });

  it('a Retry-After longer than maxDelayMs ends retrying at once', async () => {
    double.script({ status: 429, headers: { 'retry-after': '120' }, body: {} });
    const result = await client({ maxDelayMs: 60_000, timeoutMs: 600_000 }).api.POST(SEARCH, {
      body: { query: 'x' },
    });
    expect(result.response.status).toBe(429);
    expect(double.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('the overall timeout ends a call that gets no answer: CairnTimeoutError, and the request is abandoned', async () => {
    double.script('hang');
    const started = Date.now();
    const error = await client({ timeoutMs: 300, sleep: undefined })
      .api.GET('/app/api/tool-connectors/v1/connector')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CairnTimeoutError);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(double.requests).toHaveLength(1);
    await waitFor(() => double.requests[0].aborted);
  });

  it('the overall timeout covers the waits: retries stop when the next wait would pass it', async () => {
    double.script({ status: 429, headers: { 'retry-after': '1' }, body: {} });
    const result = await client({ timeoutMs: 500 }).api.POST(SEARCH, { body: { query: 'x' } });
    expect(result.response.status).toBe(429);
    expect(double.requests).toHaveLength(1);
  });

  it('an AbortSignal cancels the call, its retries and its waits', async () => {
    double.script({ status: 503, body: {} });
    const controller = new AbortController();
    const pending = client({ sleep: undefined, baseDelayMs: 5_000 })
      .save({ ...note, idempotency_key: 'abort-1' }, { signal: controller.signal })
      .catch((e: unknown) => e);
    await waitFor(() => double.requests.length === 1);
    const aborted = Date.now();
    controller.abort(new Error('the user left'));
    expect(await pending).toEqual(new Error('the user left'));
    expect(Date.now() - aborted).toBeLessThan(2_000);
    expect(double.requests).toHaveLength(1);

    double.script('hang');
    const during = new AbortController();
    const hanging = client({ sleep: undefined })
      .api.GET('/app/api/tool-connectors/v1/connector', { signal: during.signal })
      .catch((e: unknown) => e);
    await waitFor(() => double.requests.length === 1);
    during.abort();
    expect(await hanging).toMatchObject({ name: 'AbortError' });
    await waitFor(() => double.requests[0].aborted);
  });

  it('requestReply: a retryable system_status waits retry_after_ms, and the signal cancels that wait too', async () => {
    const status = {
      ok: false,
      outcome: 'system_status',
      answer: null,
      assistant_message: null,
      request_status: 'failed',
      message_id: null,
      feedback_token: null,
      system_status: {
        code: 'ai_temporarily_unavailable',
        retryable: true,
        retry_after_ms: 60_000,
        trace_id: null,
      },
    };
    double.script({ status: 200, body: status });
    const controller = new AbortController();
    const pending = client({ sleep: undefined })
      .requestReply(
        { external_thread_id: 't', idempotency_key: 'r-1', payload: { text: 'open?' } } as never,
        {
          signal: controller.signal,
        },
      )
      .catch((e: unknown) => e);
    await waitFor(() => double.requests.length === 1);
    controller.abort(new Error('stop'));
    expect(await pending).toEqual(new Error('stop'));
    expect(double.requests).toHaveLength(1);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
