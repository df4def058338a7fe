import { operatorContext } from '../../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import { IdGenerator } from '../../src/common/id-generator';
import { streams } from '../../src/events/domain-event';
import {
  createChatbot,
  PUBLIC_URL,
  publishClient,
  publishPage,
  registerOrganization,
  startClientPagesApp,
  unpublishPage,
  type ManualClock,
} from '../support/client-page-fixtures';
import { http, type TestApp } from '../support/test-app';

const LIST = '/api/cairn-client-pages';
const NOT_FOUND = { ok: false, error: { code: 'not_found', message: 'client page not found', details: [] } };

describe('GET /api/cairn-client-pages/{slug}', () => {
  let t: TestApp & { clock: ManualClock };

  /** A page whose events exist although its organization has no public website (as an older build could leave). */
  async function appendPageOfOrganizationWithout(website: string | null, slug: string): Promise<void> {
    const organization = await registerOrganization(t.commands, `Org ${slug}`, `org-${slug}`, website);
    const chatbot = await createChatbot(t.commands, organization.organization_id, 'Bot', null);
    const executor = t.app.get(StreamCommandExecutor);
    const pageId = await t.app.get(IdGenerator).next('client_page');
    const position = await executor.append(
      streams.clientPage(pageId),
      [
        {
          type: 'ClientPagePublished',
          data: {
            client_page_id: pageId,
            organization_id: organization.organization_id,
            chatbot_id: chatbot.chatbot_id,
            slug,
            organization_summary: 'Hidden organization.',
            assistant_use_summary: 'Hidden assistant.',
          },
        },
      ],
      'no_stream',
      operatorContext('test'),
      organization.organization_id,
    );
    await executor.settle(position);
  }

  beforeAll(async () => {
    t = await startClientPagesApp();
    t.clock.set('2026-02-03T04:05:06.789Z');
    await publishClient(t.commands, {
      name: 'Acme & Sons <Dental>',
      slug: 'acme-dental',
      organizationSummary: 'Acme is a "family" dental clinic.',
      assistantUseSummary: 'It books appointments.',
    });
  });
  afterAll(async () => t.close());

  it('answers the spec §2.11 shape and nothing else', async () => {
    const res = await http(t.baseUrl, 'GET', `${LIST}/acme-dental`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({
      meta: {
        title: 'Acme & Sons <Dental> — Cairn client directory',
        description: 'Acme is a "family" dental clinic.',
        canonical_url: `${PUBLIC_URL}/clients/acme-dental`,
      },
      organization: {
        name: 'Acme & Sons <Dental>',
        slug: expect.stringMatching(/^org-\d+-acme-dental$/),
        website_url: 'https://acme-dental.example.com/',
        website_host: 'acme-dental.example.com',
      },
      chatbot: {
        name: 'Acme & Sons <Dental> assistant',
        published_at: '2026-02-03',
        allowed_domain: 'www.acme-dental.example.com',
      },
      client_page: {
        slug: 'acme-dental',
        url: `${PUBLIC_URL}/clients/acme-dental`,
        status: 'published',
        updated_at: '2026-02-03T04:05:06.789Z',
      },
      content: {
        organization_summary: 'Acme is a "family" dental clinic.',
        assistant_use_summary: 'It books appointments.',
      },
    });
  });

  it('a chatbot without an allowed domain shows "" (the field is always a string)', async () => {
    const organization = await registerOrganization(
      t.commands,
      'No Domain',
      'no-domain',
      'https://nodomain.com',
    );
    const chatbot = await createChatbot(t.commands, organization.organization_id, 'Bot', null);
    await publishPage(t.commands, organization.organization_id, chatbot.chatbot_id, 'no-domain', 'A.', 'B.');
    const res = await http(t.baseUrl, 'GET', `${LIST}/no-domain`);
    expect(res.body.chatbot.allowed_domain).toBe('');
    expect(res.body.organization.website_url).toBe('https://nodomain.com/');
  });

  it('unknown, malformed, hidden and unpublished slugs all answer the same 404 JSON', async () => {
    await appendPageOfOrganizationWithout(null, 'hidden-no-website');
    await appendPageOfOrganizationWithout('http://10.1.2.3/', 'hidden-private-website');
    const gone = await publishClient(t.commands, { name: 'Gone', slug: 'gone-page' });
    expect((await http(t.baseUrl, 'GET', `${LIST}/gone-page`)).status).toBe(200);
    await unpublishPage(t.commands, gone.organization_id, 'gone-page');
    for (const slug of [
      'no-such-page',
      'hidden-no-website',
      'hidden-private-website',
      'gone-page',
      'Acme-Dental',
      'ab',
      'x'.repeat(65),
      'acme_dental',
      '%E2%80%AE',
    ]) {
      const res = await http(t.baseUrl, 'GET', `${LIST}/${slug}`);
      expect([slug, res.status, res.body]).toEqual([slug, 404, NOT_FOUND]);
    }
    const list = await http(t.baseUrl, 'GET', `${LIST}?per_page=24`);
    expect(list.body.clients.map((c: { slug: string }) => c.slug).sort()).toEqual([
      'acme-dental',
      'no-domain',
    ]);
  });

  it('ETag and Last-Modified; a matching If-None-Match or If-Modified-Since is 304 with no body', async () => {
    const path = `${LIST}/acme-dental`;
    const first = await fetch(`${t.baseUrl}${path}`);
    await first.text();
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^"[^"]+"$/);
    expect(first.headers.get('last-modified')).toBe('Tue, 03 Feb 2026 04:05:06 GMT');
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    const again = await fetch(`${t.baseUrl}${path}`, { headers: { 'if-none-match': tag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(tag);
    const since = await fetch(`${t.baseUrl}${path}`, {
      headers: { 'if-modified-since': 'Tue, 03 Feb 2026 04:05:06 GMT' },
    });
    expect(since.status).toBe(304);
    const older = await fetch(`${t.baseUrl}${path}`, {
      headers: { 'if-modified-since': 'Tue, 03 Feb 2026 04:05:05 GMT' },
    });
    expect(older.status).toBe(200);
    const otherTag = await fetch(`${t.baseUrl}${path}`, { headers: { 'if-none-match': '"nope"' } });
    expect(otherTag.status).toBe(200);
    // fetch() adds `Cache-Control: no-cache` to conditional requests: the origin still validates (304).
    const revalidate = await fetch(`${t.baseUrl}${path}`, {
      headers: { 'if-none-match': tag, 'cache-control': 'no-cache' },
    });
    expect(revalidate.status).toBe(304);
  });

  it('the list is cacheable too, and a change (unpublish) makes the old ETag and Last-Modified stale', async () => {
    const site = await publishClient(t.commands, { name: 'Cache Co', slug: 'cache-co' });
    const first = await fetch(`${t.baseUrl}${LIST}`);
    await first.text();
    const tag = first.headers.get('etag')!;
    const modified = first.headers.get('last-modified')!;
    expect(modified).toBe(new Date(t.clock.now()).toUTCString());
    expect((await fetch(`${t.baseUrl}${LIST}`, { headers: { 'if-none-match': tag } })).status).toBe(304);
    t.clock.advance(5000);
    await unpublishPage(t.commands, site.organization_id, 'cache-co');
    const after = await fetch(`${t.baseUrl}${LIST}`, { headers: { 'if-none-match': tag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(tag);
    expect(Date.parse(after.headers.get('last-modified')!)).toBe(Date.parse(modified) + 5000);
    const body = (await after.json()) as { clients: Array<{ slug: string }> };
    expect(body.clients.map((c) => c.slug)).not.toContain('cache-co');
    expect((await fetch(`${t.baseUrl}${LIST}`, { headers: { 'if-modified-since': modified } })).status).toBe(
      200,
    );
  });

  it('needs no token, and a bearer header changes nothing', async () => {
    const anonymous = await http(t.baseUrl, 'GET', `${LIST}/acme-dental`);
    const withToken = await http(t.baseUrl, 'GET', `${LIST}/acme-dental`, { token: 'cairn_bogus' });
    expect(withToken.status).toBe(200);
    expect(withToken.body).toEqual(anonymous.body);
  });
});
