import { loadConfig } from '../../src/config/config';
import { startClientPagesApp } from '../support/client-page-fixtures';
import { http, type TestApp } from '../support/test-app';

describe('public client pages: rate limit per client IP (CAIRN_PUBLIC_RATE_LIMIT)', () => {
  let limited: TestApp;
  let unlimited: TestApp;
  beforeAll(async () => {
    limited = await startClientPagesApp({ CAIRN_PUBLIC_RATE_LIMIT: '3' });
    unlimited = await startClientPagesApp({ CAIRN_PUBLIC_RATE_LIMIT: '0' });
  });
  afterAll(async () => {
    await limited.close();
    await unlimited.close();
  });

  it('API, pages and stylesheet share one budget; past it: 429 with Retry-After and the JSON error', async () => {
    const first = await http(limited.baseUrl, 'GET', '/api/cairn-client-pages');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('3');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    expect((await fetch(`${limited.baseUrl}/clients`)).status).toBe(200);
    expect((await fetch(`${limited.baseUrl}/clients/assets/site.css`)).status).toBe(200);

    const refused = await http(limited.baseUrl, 'GET', '/api/cairn-client-pages/some-page');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(refused.body).toEqual({
      ok: false,
      error: {
        code: 'rate_limited',
        message: expect.stringContaining('3 per minute'),
        details: [
          { message: `retry after ${retryAfter} s`, retryable: true, retry_after_ms: retryAfter * 1000 },
        ],
      },
    });

    const page = await fetch(`${limited.baseUrl}/clients?q=x`);
    expect(page.status).toBe(429);
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<h1>Too many requests</h1>');
  });

  it('other endpoints are not limited by it', async () => {
    for (let i = 0; i < 5; i++) expect((await http(limited.baseUrl, 'GET', '/health')).status).toBe(200);
  });

  it('0 disables the limit', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await http(unlimited.baseUrl, 'GET', '/api/cairn-client-pages');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });

  it('the configuration accepts 0 to 1,000,000 and defaults to 300', () => {
    expect(loadConfig({}).publicRateLimit).toBe(300);
    expect(loadConfig({ CAIRN_PUBLIC_RATE_LIMIT: '0' }).publicRateLimit).toBe(0);
    for (const bad of ['-1', 'ten', '1.5', '1000001']) {
      expect(() => loadConfig({ CAIRN_PUBLIC_RATE_LIMIT: bad })).toThrow(/CAIRN_PUBLIC_RATE_LIMIT/);
    }
  });
});
