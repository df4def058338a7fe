import {
  PUBLIC_URL,
  publishClient,
  publishPage,
  startClientPagesApp,
  type ManualClock,
} from '../support/client-page-fixtures';
import { http, type TestApp } from '../support/test-app';

const LIST = '/api/cairn-client-pages';
const ENTRY_FIELDS = [
  'allowed_domain',
  'assistant_use_summary',
  'name',
  'organization_summary',
  'published_at',
  'slug',
  'url',
  'website_host',
  'website_url',
];
const slugsOf = (body: { clients: Array<{ slug: string }> }): string[] => body.clients.map((c) => c.slug);

function expect422(res: { status: number; body: unknown }, fields: string[]): void {
  expect(res.status).toBe(422);
  expect(res.body).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
  const details = (res.body as { error: { details: Array<{ field: string }> } }).error.details;
  expect(details.map((d) => d.field).sort()).toEqual([...fields].sort());
}

describe('GET /api/cairn-client-pages on an empty directory', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startClientPagesApp();
  });
  afterAll(async () => t.close());

  it('answers 200 with no clients, one empty page and "No clients found", without Last-Modified', async () => {
    const res = await http(t.baseUrl, 'GET', LIST);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      meta: {
        title: 'Client directory — Cairn',
        description: expect.any(String),
        canonical_url: `${PUBLIC_URL}/clients`,
      },
      filters: {
        q: '',
        sort: 'name',
        sort_options: { name: 'Name (A–Z)', newest: 'Newest', updated: 'Recently updated' },
      },
      clients: [],
      pagination: {
        current_page: 1,
        last_page: 1,
        per_page: 12,
        total: 0,
        links: [
          { url: null, label: 'Previous', page: null, active: false },
          { url: `${PUBLIC_URL}${LIST}`, label: '1', page: 1, active: true },
          { url: null, label: 'Next', page: null, active: false },
        ],
      },
      total: 0,
      summary: 'No clients found',
    });
    expect(res.headers.get('last-modified')).toBeNull();
    expect(res.headers.get('etag')).toMatch(/^"/);
    expect((await http(t.baseUrl, 'GET', `${LIST}?q=zzz`)).body.summary).toBe('No clients match "zzz"');
  });
});

describe('GET /api/cairn-client-pages', () => {
  let t: TestApp & { clock: ManualClock };
  const BY_NAME = 'alpha-dental angstrom-optics beta-bakery gamma-gym same-a same-b zeta-zoo'.split(' ');
  const BY_NEWEST = 'gamma-gym same-a same-b zeta-zoo alpha-dental angstrom-optics beta-bakery'.split(' ');
  const BY_UPDATED = 'beta-bakery gamma-gym same-a same-b zeta-zoo alpha-dental angstrom-optics'.split(' ');

  beforeAll(async () => {
    t = await startClientPagesApp();
    const at = (iso: string) => t.clock.set(iso);
    at('2026-01-01T10:00:00.000Z');
    const beta = await publishClient(t.commands, { name: 'Beta Bakery', slug: 'beta-bakery' });
    at('2026-01-02T10:00:00.000Z'); // two pages published in the same millisecond: a tie on newest/updated
    await publishClient(t.commands, { name: 'alpha Dental', slug: 'alpha-dental' });
    await publishClient(t.commands, { name: 'Ångström Optics', slug: 'angstrom-optics' });
    at('2026-01-03T10:00:00.000Z');
    await publishClient(t.commands, {
      name: 'Zeta Zoo',
      slug: 'zeta-zoo',
      assistantUseSummary: 'Sells tickets for the Penguin feeding.',
    });
    at('2026-01-04T10:00:00.000Z'); // same name and same time: only the slug orders them
    await publishClient(t.commands, { name: 'Same Name', slug: 'same-b' });
    await publishClient(t.commands, { name: 'Same Name', slug: 'same-a' });
    at('2026-01-05T10:00:00.000Z');
    await publishClient(t.commands, {
      name: 'Gamma Gym',
      slug: 'gamma-gym',
      organizationSummary: 'A gym that hands out dental floss.',
    });
    at('2026-01-06T10:00:00.000Z');
    await publishPage(
      t.commands,
      beta.organization_id,
      beta.chatbot_id,
      'beta-bakery',
      'Bread since 1901.',
      'The assistant answers visitor questions.',
    );
  });
  afterAll(async () => t.close());

  it('defaults: sort name, 12 per page, page 1; entries carry exactly the spec fields', async () => {
    const res = await http(t.baseUrl, 'GET', LIST);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'clients',
      'filters',
      'meta',
      'pagination',
      'summary',
      'total',
    ]);
    expect(res.body.filters).toMatchObject({ q: '', sort: 'name' });
    expect(res.body.pagination).toMatchObject({ current_page: 1, last_page: 1, per_page: 12, total: 7 });
    expect(res.body.total).toBe(7);
    expect(res.body.summary).toBe('Showing 1–7 of 7 clients');
    expect(slugsOf(res.body)).toEqual(BY_NAME);
    for (const client of res.body.clients) expect(Object.keys(client).sort()).toEqual(ENTRY_FIELDS);
    expect(res.body.clients[0]).toEqual({
      name: 'alpha Dental',
      slug: 'alpha-dental',
      url: `${PUBLIC_URL}/clients/alpha-dental`,
      website_url: 'https://alpha-dental.example.com/',
      website_host: 'alpha-dental.example.com',
      allowed_domain: 'www.alpha-dental.example.com',
      published_at: '2026-01-02',
      organization_summary: 'alpha Dental is an organization.',
      assistant_use_summary: 'The assistant answers visitor questions.',
    });
  });

  it('leaks nothing internal: no ids, search keys or internal states in the body', async () => {
    const text = JSON.stringify((await http(t.baseUrl, 'GET', `${LIST}?per_page=24`)).body);
    for (const secret of [
      'organization_id',
      'chatbot_id',
      'client_page_id',
      'search_text',
      'name_key',
      'publication',
      'org-',
      'updated_at',
      '"id"',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it.each([
    ['name', BY_NAME],
    ['newest', BY_NEWEST],
    ['updated', BY_UPDATED],
  ])(
    'sort=%s orders with the slug as tie-breaker, and paging never repeats or skips',
    async (sort, order) => {
      const full = await http(t.baseUrl, 'GET', `${LIST}?sort=${sort}`);
      expect(full.body.filters.sort).toBe(sort);
      expect(slugsOf(full.body)).toEqual(order);
      const walked: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const res = await http(t.baseUrl, 'GET', `${LIST}?sort=${sort}&per_page=2&page=${page}`);
        expect(res.body.pagination).toMatchObject({
          current_page: page,
          last_page: 4,
          per_page: 2,
          total: 7,
        });
        walked.push(...slugsOf(res.body));
      }
      expect(walked).toEqual(order);
    },
  );

  it('q matches name, organization summary or assistant summary, ignoring case and accents; trimmed', async () => {
    const search = async (q: string) => http(t.baseUrl, 'GET', `${LIST}?q=${encodeURIComponent(q)}`);
    expect(slugsOf((await search('DENTAL')).body)).toEqual(['alpha-dental', 'gamma-gym']);
    expect(slugsOf((await search('penguin')).body)).toEqual(['zeta-zoo']);
    expect(slugsOf((await search('ANGSTRÖM')).body)).toEqual(['angstrom-optics']);
    expect(slugsOf((await search('angstrom')).body)).toEqual(['angstrom-optics']);
    const trimmed = await search('  penguin  ');
    expect(trimmed.body.filters.q).toBe('penguin');
    expect(trimmed.body.summary).toBe('Showing 1 of 1 client matching "penguin"');
    expect(trimmed.body.pagination.links[1].url).toBe(`${PUBLIC_URL}${LIST}?q=penguin`);
    const nothing = await search('no such words');
    expect(nothing.body).toMatchObject({
      clients: [],
      total: 0,
      summary: 'No clients match "no such words"',
    });
    expect((await search('   ')).body.total).toBe(7); // empty after trimming: no filter
  });

  it('q: at most 200 characters after trimming, no control characters; otherwise 422', async () => {
    expect((await http(t.baseUrl, 'GET', `${LIST}?q=${'é'.repeat(200)}`)).status).toBe(200);
    expect(
      (await http(t.baseUrl, 'GET', `${LIST}?q=${encodeURIComponent(` ${'a'.repeat(200)} `)}`)).status,
    ).toBe(200);
    expect422(await http(t.baseUrl, 'GET', `${LIST}?q=${'a'.repeat(201)}`), ['q']);
    expect422(await http(t.baseUrl, 'GET', `${LIST}?q=a%00b`), ['q']);
    expect422(await http(t.baseUrl, 'GET', `${LIST}?q=zoo%0Azeta`), ['q']);
  });

  it('per_page: an integer from 1 to 24; anything else is 422', async () => {
    expect((await http(t.baseUrl, 'GET', `${LIST}?per_page=1`)).body.clients).toHaveLength(1);
    const max = await http(t.baseUrl, 'GET', `${LIST}?per_page=24`);
    expect(max.body.pagination.per_page).toBe(24);
    for (const bad of ['0', '25', '-1', '1.5', 'ten', '', '1e1', '%201']) {
      expect422(await http(t.baseUrl, 'GET', `${LIST}?per_page=${bad}`), ['per_page']);
    }
  });

  it('page: an integer from 1 to 10,000; anything else is 422', async () => {
    for (const bad of ['0', '-1', '10001', 'x', '', '2.0']) {
      expect422(await http(t.baseUrl, 'GET', `${LIST}?page=${bad}`), ['page']);
    }
    expect((await http(t.baseUrl, 'GET', `${LIST}?page=10000`)).status).toBe(200);
  });

  it('sort outside name|newest|updated, and repeated parameters, are 422 naming every field', async () => {
    expect422(await http(t.baseUrl, 'GET', `${LIST}?sort=oldest`), ['sort']);
    expect422(await http(t.baseUrl, 'GET', `${LIST}?sort=NAME`), ['sort']);
    expect422(await http(t.baseUrl, 'GET', `${LIST}?sort=name&sort=newest`), ['sort']);
    expect422(await http(t.baseUrl, 'GET', `${LIST}?q=a&q=b&page=1&page=2`), ['q', 'page']);
    expect422(await http(t.baseUrl, 'GET', `${LIST}?per_page=2&per_page=2&sort=x`), ['per_page', 'sort']);
  });

  it('unknown parameters (tracking links) are ignored', async () => {
    const plain = await http(t.baseUrl, 'GET', LIST);
    const tracked = await http(
      t.baseUrl,
      'GET',
      `${LIST}?utm_source=news&utm_medium=email&fbclid=abc&x[y]=1`,
    );
    expect(tracked.status).toBe(200);
    expect(tracked.body).toEqual(plain.body);
  });

  it('the last page, and a page past it (200, no clients, correct pagination)', async () => {
    const last = await http(t.baseUrl, 'GET', `${LIST}?per_page=3&page=3`);
    expect(slugsOf(last.body)).toEqual(['zeta-zoo']);
    expect(last.body.summary).toBe('Showing 7–7 of 7 clients');
    expect(last.body.pagination.links.at(-1)).toEqual({
      url: null,
      label: 'Next',
      page: null,
      active: false,
    });
    const beyond = await http(t.baseUrl, 'GET', `${LIST}?per_page=3&page=9`);
    expect(beyond.status).toBe(200);
    expect(beyond.body).toMatchObject({
      clients: [],
      total: 7,
      pagination: { current_page: 9, last_page: 3, per_page: 3, total: 7 },
      summary: 'No clients on page 9: 7 clients on 3 pages',
    });
    expect(beyond.body.pagination.links[0]).toEqual({
      url: `${PUBLIC_URL}${LIST}?per_page=3&page=3`,
      label: 'Previous',
      page: 3,
      active: false,
    });
    expect(beyond.body.pagination.links.filter((l: { active: boolean }) => l.active)).toEqual([]);
  });

  it('links are absolute and keep q, sort and per_page when not default; meta follows the page', async () => {
    const res = await http(t.baseUrl, 'GET', `${LIST}?q=Organization&sort=newest&per_page=2&page=2`);
    const base = `${PUBLIC_URL}${LIST}?q=Organization&sort=newest&per_page=2`;
    expect(res.body.pagination.links).toEqual([
      { url: base, label: 'Previous', page: 1, active: false },
      { url: base, label: '1', page: 1, active: false },
      { url: `${base}&page=2`, label: '2', page: 2, active: true },
      { url: `${base}&page=3`, label: '3', page: 3, active: false },
      { url: `${base}&page=3`, label: 'Next', page: 3, active: false },
    ]);
    expect(res.body.meta).toMatchObject({
      title: 'Client directory, page 2 — Cairn',
      canonical_url: `${PUBLIC_URL}/clients?page=2`,
    });
    // The 5 matches, newest first: same-a, same-b | zeta-zoo, alpha-dental | angstrom-optics.
    expect(slugsOf(res.body)).toEqual(['zeta-zoo', 'alpha-dental']);
    expect(res.body.summary).toBe('Showing 3–4 of 5 clients matching "Organization"');
    const defaults = await http(t.baseUrl, 'GET', `${LIST}?sort=name&per_page=12&page=1`);
    expect(defaults.body.pagination.links[1].url).toBe(`${PUBLIC_URL}${LIST}`);
  });
});
