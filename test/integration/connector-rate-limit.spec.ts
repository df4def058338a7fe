/**
 * Issue 20: connector rate limits per token and capability class (search, writes, replies), 429 with Retry-After
 * and the JSON error body, nothing stored on refusal, and one budget shared by every process on the same store
 * (two servers on one data directory here, as CAIRN_HTTP_WORKERS runs them).
 */
import { loadConfig } from '../../src/config/config';
import { ManualClock } from '../support/client-page-fixtures';
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY } from '../support/memory-fixtures';
import { REPLIES } from '../support/reply-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';

const LIMITS = { CAIRN_RATE_LIMIT_SEARCH: '4', CAIRN_RATE_LIMIT_WRITES: '2', CAIRN_RATE_LIMIT_REPLIES: '1' };

describe('connector rate limits (issue 20)', () => {
  const clock = new ManualClock();
  let a: TestApp;
  let b: TestApp;
  let token: string;
  let other: string;

  beforeAll(async () => {
    a = await startTestApp(LIMITS, undefined, [], clock);
    b = await startTestApp(LIMITS, a.dataDir, [], clock);
    const org = (await createOrganization(a.commands, 'Rate limits')).organization_id;
    token = (await createConnector(a.commands, org, [...ALL_MEMORY, 'assistant_reply'])).token;
    other = (await createConnector(a.commands, org, ALL_MEMORY)).token;
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  const search = (t: TestApp, as = token) =>
    http(t.baseUrl, 'POST', `${MEMORY}/search`, { token: as, body: { query: 'heron' } });
  const save = (t: TestApp, n: number) =>
    http(t.baseUrl, 'POST', `${MEMORY}/save`, {
      token,
      body: { kind: 'note', title: `Note ${n}`, content: `Heron note ${n}.` },
    });

  function expectLimited(
    res: Awaited<ReturnType<typeof http>>,
    rateClass: string,
    limit: number,
    wait: number,
  ) {
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(String(wait));
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      ok: false,
      error: {
        code: 'rate_limited',
        message: `too many ${rateClass} requests for this token: at most ${limit} per minute; retry later`,
        details: [{ message: `retry after ${wait} s`, retryable: true, retry_after_ms: wait * 1000 }],
      },
    });
  }

  it('counts one budget per token and class across both servers; the refusal stores nothing', async () => {
    clock.set('2026-03-01T09:00:10.000Z');
    const statuses = [];
    for (const t of [a, b, a, b]) statuses.push((await search(t)).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    const head = await a.stores.eventStore.headPosition();
    expectLimited(await search(b), 'search', 4, 50);
    clock.set('2026-03-01T09:00:59.200Z');
    expectLimited(await search(a), 'search', 4, 1);
    expect(await a.stores.eventStore.headPosition()).toBe(head);
    // Another token of the same organization has its own budget; writes have theirs.
    expect((await search(a, other)).status).toBe(200);
    expect([(await save(a, 1)).status, (await save(b, 2)).status]).toEqual([200, 200]);
    expectLimited(await save(a, 3), 'writes', 2, 1);
    // The next minute starts a new budget.
    clock.set('2026-03-01T09:01:00.000Z');
    expect((await search(b)).status).toBe(200);
    expect((await save(b, 4)).status).toBe(200);
  });

  it('limits reply requests in their own class', async () => {
    clock.set('2026-03-01T10:00:30.000Z');
    const body = (key: string) => ({
      external_thread_id: `thread-${key}`,
      idempotency_key: key,
      payload: { text: 'When do herons nest?' },
    });
    const first = await http(a.baseUrl, 'POST', REPLIES, { token, body: body('r1') });
    expect(first.status).not.toBe(429);
    expectLimited(await http(b.baseUrl, 'POST', REPLIES, { token, body: body('r2') }), 'replies', 1, 30);
  });

  it('has documented defaults, and 0 turns a class off', () => {
    expect(loadConfig({}).connectorRateLimits).toEqual({ search: 600, writes: 120, replies: 30 });
    expect(loadConfig({ CAIRN_RATE_LIMIT_SEARCH: '0' }).connectorRateLimits.search).toBe(0);
    expect(() => loadConfig({ CAIRN_RATE_LIMIT_WRITES: '-1' })).toThrow(/CAIRN_RATE_LIMIT_WRITES/);
  });
});
