import {
  CairnApiError,
  createCairnClient,
  type CairnClient,
  type ReplyRequest,
} from '../../clients/typescript/src/index';
import { reply, type ModelServer } from '../support/model-server';
import { startModelApp } from '../support/reply-fixtures';
import { createReplyTenant, QUESTION, type ReplyTenant } from '../support/reply-tenant';
import type { TestApp } from '../support/test-app';

/** The typed client (clients/typescript) against a live server and the OpenAI-compatible test double. */
describe('typed TypeScript client (clients/typescript)', () => {
  let model: ModelServer;
  let t: TestApp;
  let close: () => Promise<void>;
  let tenant: ReplyTenant;
  let client: CairnClient;
  const sent: unknown[] = [];
  const waits: number[] = [];
  const sleep = (ms: number): Promise<void> => {
    waits.push(ms);
    return new Promise((resolve) => setTimeout(resolve, ms));
  };

  beforeAll(async () => {
    ({ model, t, close } = await startModelApp({ CAIRN_MODEL_TIMEOUT_MS: '1500' }));
    tenant = await createReplyTenant(t);
    client = createCairnClient({
      baseUrl: `${t.baseUrl}/`,
      token: tenant.token,
      fetch: async (request) => {
        if (request.method === 'POST') sent.push(JSON.parse(await request.clone().text()));
        return fetch(request);
      },
    });
  });
  beforeEach(() => {
    sent.length = 0;
    waits.length = 0;
    model.script.reset();
  });
  afterAll(() => close());

  const request = (key: string): ReplyRequest => ({
    external_thread_id: `thread-${key}`,
    idempotency_key: key,
    channel: 'email',
    payload: { text: QUESTION, subject: 'Hours', from: 'pat@example.com' },
  });

  it('a reply: outcome reply with the §2.5 body; accept and correct send feedback on its message', async () => {
    const result = await client.requestReply(request('ok-1'), { sleep });
    expect(result.outcome).toBe('reply');
    if (result.outcome !== 'reply') return;
    expect(result.attempts).toBe(1);
    expect(result.reply).toMatchObject({ ok: true, generated_by_ai: true, contract_version: '2026-07-17.2' });
    expect(result.reply.suggested_response.text).toContain('Monday to Friday');
    const accepted = await client.accept(result.reply.message_id, { external_feedback_id: 'fb-1' });
    expect(accepted).toMatchObject({ ok: true, outcome: 'accepted', rating: 'up', idempotent_replay: false });
    const corrected = await client.correct(result.reply.message_id, 'Open 8:00 to 18:00, Monday to Friday.', {
      external_feedback_id: 'fb-2',
    });
    expect(corrected).toMatchObject({ ok: true, outcome: 'corrected', rating: 'down' });
    expect(Number.isInteger(corrected.proposal_id)).toBe(true);
    const rejected = await client.reject(result.reply.message_id, { external_feedback_id: 'fb-3' });
    expect(rejected).toMatchObject({ ok: true, outcome: 'rejected', rating: 'down' });
    expect(waits).toEqual([]);
  });

  it('a retryable system_status is retried with the same idempotency fields after retry_after_ms', async () => {
    model.script.draft(reply.status(429)); // the provider's Retry-After: 1 → retry_after_ms 1000
    const result = await client.requestReply(request('retry-1'), { sleep });
    expect(result.outcome).toBe('reply');
    expect(result.attempts).toBe(2);
    expect(waits).toEqual([1000]);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(sent[0]).toMatchObject({ idempotency_key: 'retry-1', external_thread_id: 'thread-retry-1' });
  });

  it('retries stop at maxAttempts: the system_status comes back as state, never as text', async () => {
    model.script.draft(reply.status(429), reply.status(429));
    const result = await client.requestReply(request('bound-1'), { sleep, maxAttempts: 2 });
    expect(result).toEqual({
      outcome: 'system_status',
      status: { code: 'ai_temporarily_unavailable', retryable: true, retry_after_ms: 1000, trace_id: null },
      reply_id: expect.any(Number),
      attempts: 2,
    });
    expect(JSON.stringify(result)).not.toMatch(/"text"/);
    expect(waits).toEqual([1000]);
  });

  it('a non-retryable system_status is returned at once', async () => {
    model.script.draft(reply.status(401)); // the provider refuses the key: provider_unavailable, not retryable
    const result = await client.requestReply(request('final-1'), { sleep });
    expect(result).toMatchObject({
      outcome: 'system_status',
      status: { code: 'provider_unavailable', retryable: false, retry_after_ms: 0 },
      attempts: 1,
    });
    expect(waits).toEqual([]);
    expect(sent).toHaveLength(1);
  });

  it('refuses a request without an idempotency identity; API errors throw CairnApiError with the error body', async () => {
    const { idempotency_key: _key, ...anonymous } = request('x');
    await expect(client.requestReply(anonymous)).rejects.toThrow(/idempotency_key or external_message_id/);
    const anonymousClient = createCairnClient({ baseUrl: t.baseUrl });
    const refused = await anonymousClient.requestReply(request('no-token')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CairnApiError);
    expect(refused).toMatchObject({ status: 401, code: 'missing_token', body: { ok: false } });
    const invalid = await client
      .requestReply({ ...request('bad'), channel: 'pigeon' as 'email' })
      .catch((e) => e);
    expect(invalid).toMatchObject({ status: 422, code: 'validation_failed' });
  });

  it('every operation is typed: search, fetch one item, and the public directory', async () => {
    const search = await client.api.POST('/app/api/tool-connectors/v1/memory/search', {
      body: { query: 'clinic open', limit: 5 },
    });
    expect(search.data?.results.map((item) => item.memory_item_id)).toEqual([tenant.memory_item_id]);
    const item = await client.api.GET('/app/api/tool-connectors/v1/memory/items/{memory_item_id}', {
      params: { path: { memory_item_id: tenant.memory_item_id } },
    });
    expect(item.data?.content).toContain('Monday to Friday');
    const directory = await createCairnClient({ baseUrl: t.baseUrl }).api.GET('/api/cairn-client-pages', {
      params: { query: { per_page: 2 } },
    });
    expect(directory.data).toMatchObject({ clients: [], total: 0, pagination: { per_page: 2 } });
  });
});
