import { JSDOM } from 'jsdom';
import {
  PUBLIC_URL,
  publishClient,
  startClientPagesApp,
  type ManualClock,
} from '../support/client-page-fixtures';
import type { TestApp } from '../support/test-app';

const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const EVIL = '<script>alert(1)</script> & "Quotes"';

async function page(t: TestApp, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${t.baseUrl}${path}`, { headers });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    document: new JSDOM(text).window.document,
  };
}

const attr = (document: Document, selector: string, name: string): string | null =>
  document.querySelector(selector)?.getAttribute(name) ?? null;
const texts = (document: Document, selector: string): string[] =>
  [...document.querySelectorAll(selector)].map((node) => node.textContent?.replace(/\s+/g, ' ').trim() ?? '');

describe('HTML pages /clients and /clients/{slug}', () => {
  let t: TestApp & { clock: ManualClock };

  beforeAll(async () => {
    t = await startClientPagesApp();
    for (let i = 1; i <= 13; i++) {
      t.clock.advance(1000);
      await publishClient(t.commands, { name: `Client ${String(i).padStart(2, '0')}`, slug: `client-${i}` });
    }
    t.clock.set('2026-07-04T12:00:00.000Z');
    await publishClient(t.commands, {
      name: EVIL,
      slug: 'evil-page',
      organizationSummary: 'We <img src=x onerror=alert(1)> sell things.',
      assistantUseSummary: 'It answers "questions" & more.',
    });
  });
  afterAll(async () => t.close());

  it('/clients: headers for a safe, cacheable HTML page without any script', async () => {
    const res = await page(t, '/clients');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('last-modified')).toBe('Sat, 04 Jul 2026 12:00:00 GMT');
    expect(res.document.querySelectorAll('script')).toHaveLength(0);
    expect(res.document.querySelectorAll('[style]')).toHaveLength(0);
    const handlers = [...res.document.querySelectorAll('*')].flatMap((element) =>
      element.getAttributeNames().filter((name) => name.startsWith('on')),
    );
    expect(handlers).toEqual([]);
    expect(res.text).not.toContain('<script');
    const tag = res.headers.get('etag')!;
    expect((await fetch(`${t.baseUrl}/clients`, { headers: { 'if-none-match': tag } })).status).toBe(304);
  });

  it('/clients: head tags from meta, landmarks, a labelled search form, the list and pagination', async () => {
    const { document } = await page(t, '/clients?utm_source=mail');
    expect(document.documentElement.getAttribute('lang')).toBe('en');
    expect(document.title).toBe('Client directory — Cairn');
    expect(attr(document, 'meta[name="description"]', 'content')).toMatch(/^Organizations that use/);
    expect(attr(document, 'link[rel="canonical"]', 'href')).toBe(`${PUBLIC_URL}/clients`);
    expect(attr(document, 'meta[property="og:url"]', 'content')).toBe(`${PUBLIC_URL}/clients`);
    expect(attr(document, 'meta[property="og:title"]', 'content')).toBe('Client directory — Cairn');
    expect(attr(document, 'meta[property="og:type"]', 'content')).toBe('website');
    expect(attr(document, 'meta[property="og:site_name"]', 'content')).toBe('Cairn');
    expect(attr(document, 'meta[property="og:description"]', 'content')).toMatch(/^Organizations/);
    expect(attr(document, 'a.skip-link', 'href')).toBe('#main');
    for (const landmark of ['header', 'main#main', 'footer', 'nav[aria-label="Pagination"]']) {
      expect(document.querySelector(landmark)).not.toBeNull();
    }
    const form = document.querySelector('form[role="search"]')!;
    expect([form.getAttribute('method'), form.getAttribute('action')]).toEqual(['get', '/clients']);
    expect(form.querySelector('label[for="client-search"]')?.textContent).toBe('Search clients');
    expect(attr(document, '#client-search', 'name')).toBe('q');
    expect(form.querySelector('label[for="client-sort"]')?.textContent).toBe('Sort by');
    expect(texts(document, '#client-sort option')).toEqual(['Name (A–Z)', 'Newest', 'Recently updated']);
    expect(attr(document, '#client-sort option[selected]', 'value')).toBe('name');
    expect(form.querySelector('button[type="submit"]')).not.toBeNull();
    expect(texts(document, '[data-testid="results-summary"]')).toEqual(['Showing 1–12 of 14 clients']);
    const links = [...document.querySelectorAll<HTMLAnchorElement>('[data-testid="client-link"]')];
    expect(links).toHaveLength(12);
    expect(links[0].getAttribute('href')).toBe('/clients/evil-page'); // "<script>…" sorts first by name
    expect(links[1].getAttribute('href')).toBe('/clients/client-1');
    expect(texts(document, '[aria-current="page"]')).toEqual(['1']);
    expect(attr(document, '[data-testid="pagination-page-2"]', 'href')).toBe('/clients?page=2');
    expect(attr(document, '[data-testid="pagination-next"]', 'href')).toBe('/clients?page=2');
    expect(attr(document, '[data-testid="pagination-previous"]', 'aria-disabled')).toBe('true');
  });

  it('/clients keeps q, sort and per_page in the form and in pagination links', async () => {
    const { document } = await page(t, '/clients?q=client&sort=newest&per_page=5&page=2');
    expect(attr(document, '#client-search', 'value')).toBe('client');
    expect(attr(document, '#client-sort option[selected]', 'value')).toBe('newest');
    expect(attr(document, 'input[type="hidden"][name="per_page"]', 'value')).toBe('5');
    expect(texts(document, '[aria-current="page"]')).toEqual(['2']);
    expect(attr(document, '[data-testid="pagination-next"]', 'href')).toBe(
      '/clients?q=client&sort=newest&per_page=5&page=3',
    );
    expect(attr(document, '[data-testid="pagination-previous"]', 'href')).toBe(
      '/clients?q=client&sort=newest&per_page=5',
    );
    expect(attr(document, 'link[rel="canonical"]', 'href')).toBe(`${PUBLIC_URL}/clients?page=2`);
    expect(document.title).toBe('Client directory, page 2 — Cairn');
    expect(texts(document, '[data-testid="results-summary"]')).toEqual([
      'Showing 6–10 of 13 clients matching "client"',
    ]);
  });

  it('everything interpolated is escaped: stored names and summaries, and the reflected q', async () => {
    const q = '"><script>alert(2)</script>';
    const res = await page(t, `/clients?q=${encodeURIComponent(q)}`);
    expect(res.document.querySelectorAll('script')).toHaveLength(0);
    expect(attr(res.document, '#client-search', 'value')).toBe(q);
    expect(texts(res.document, '[data-testid="results-summary"]')).toEqual([`No clients match "${q}"`]);
    const evil = await page(t, '/clients/evil-page');
    expect(evil.document.querySelectorAll('script, img')).toHaveLength(0);
    expect(evil.text).not.toContain('<script>alert(1)');
    expect(evil.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Quotes&quot;');
    expect(texts(evil.document, 'h1')).toEqual([EVIL]);
    expect(evil.document.title).toBe(`${EVIL} — Cairn client directory`);
    expect(texts(evil.document, '[data-testid="organization-summary"]')).toEqual([
      'We <img src=x onerror=alert(1)> sell things.',
    ]);
  });

  it('/clients/{slug}: the organization, its assistant, both summaries and a safe link to its website', async () => {
    const res = await page(t, '/clients/client-3');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(CSP);
    const { document } = res;
    expect(document.title).toBe('Client 03 — Cairn client directory');
    expect(attr(document, 'link[rel="canonical"]', 'href')).toBe(`${PUBLIC_URL}/clients/client-3`);
    expect(attr(document, 'meta[property="og:url"]', 'content')).toBe(`${PUBLIC_URL}/clients/client-3`);
    expect(attr(document, 'meta[name="description"]', 'content')).toBe('Client 03 is an organization.');
    expect(texts(document, 'main h1')).toEqual(['Client 03']);
    expect(texts(document, '[data-testid="chatbot-name"]')).toEqual(['Client 03 assistant']);
    expect(texts(document, '[data-testid="allowed-domain"]')).toEqual(['www.client-3.example.com']);
    expect(attr(document, 'time[data-testid="published-at"]', 'datetime')).toBe('2026-03-01');
    expect(texts(document, 'time[data-testid="published-at"]')).toEqual(['March 1, 2026']);
    expect(texts(document, '[data-testid="assistant-use-summary"]')).toEqual([
      'The assistant answers visitor questions.',
    ]);
    const website = document.querySelector('[data-testid="website-link"]')!;
    expect(website.getAttribute('href')).toBe('https://client-3.example.com/');
    expect(website.getAttribute('rel')?.split(' ').sort()).toEqual(['noopener', 'noreferrer']);
    expect(attr(document, '[data-testid="back-link"]', 'href')).toBe('/clients');
    expect(document.querySelectorAll('script')).toHaveLength(0);
  });

  it('an unknown slug is a 404 page, invalid parameters a 422 page; both link back and are not indexed', async () => {
    const missing = await page(t, '/clients/no-such-client');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(missing.headers.get('content-security-policy')).toBe(CSP);
    expect(texts(missing.document, 'h1')).toEqual(['Page not found']);
    expect(attr(missing.document, 'meta[name="robots"]', 'content')).toBe('noindex');
    expect(missing.document.querySelector('link[rel="canonical"]')).toBeNull();
    expect(attr(missing.document, '[data-testid="back-link"]', 'href')).toBe('/clients');
    const invalid = await page(t, '/clients?per_page=99&sort=oldest');
    expect(invalid.status).toBe(422);
    expect(texts(invalid.document, '[data-testid="error-details"] li')).toEqual([
      'sort: must be one of name, newest, updated',
      'per_page: must be an integer from 1 to 24',
    ]);
    expect(attr(invalid.document, '[data-testid="back-link"]', 'href')).toBe('/clients');
  });

  it('a page past the last one is 200 with a way back to the last page', async () => {
    const { status, document } = await page(t, '/clients?page=9');
    expect(status).toBe(200);
    expect(texts(document, '[data-testid="results-summary"]')).toEqual([
      'No clients on page 9: 14 clients on 2 pages',
    ]);
    expect(document.querySelector('[data-testid="client-list"]')).toBeNull();
    expect(attr(document, '[data-testid="pagination-previous"]', 'href')).toBe('/clients?page=2');
    expect(document.querySelector('[aria-current="page"]')).toBeNull();
  });

  it('the stylesheet is served from this origin and cacheable', async () => {
    const css = await fetch(`${t.baseUrl}/clients/assets/site.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(await css.text()).toContain('.skip-link');
    const again = await fetch(`${t.baseUrl}/clients/assets/site.css`, {
      headers: { 'if-none-match': css.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('every page links its own icon, so browsers never ask for a missing /favicon.ico', async () => {
    for (const path of ['/clients', '/clients/client-1', '/clients/no-such-client']) {
      const { document } = await page(t, path);
      expect(attr(document, 'link[rel="icon"]', 'href')).toBe('/clients/assets/favicon.svg');
    }
    const icon = await fetch(`${t.baseUrl}/clients/assets/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(await icon.text()).toMatch(/^<svg /);
  });
});
