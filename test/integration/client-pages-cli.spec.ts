import { join } from 'node:path';
import { loadConfig } from '../../src/config/config';
import { cairn } from '../support/cli';
import { startServerProcess, stopAllServers } from '../support/server-process';
import { makeTempDir } from '../support/temp-dir';

describe('client-page CLI (real processes, embedded store)', () => {
  jest.setTimeout(180_000);
  const temp = makeTempDir();
  const dataDir = join(temp.dir, 'data');
  const run = (...args: string[]) => cairn(dataDir, ...args);
  const publicUrl = loadConfig({ ...process.env, CAIRN_DATA_DIR: dataDir }).publicUrl;
  let org = '';
  let chatbot = '';

  afterAll(async () => {
    await stopAllServers();
    temp.cleanup();
  });

  beforeAll(async () => {
    org = String(
      (await run('org:create', '--name', 'Acme Dental', '--website-url', 'https://acme-dental.com')).json
        .organization_id,
    );
    chatbot = String((await run('chatbot:create', org, '--name', 'Acme bot')).json.chatbot_id);
  });

  const publish = (...extra: string[]) =>
    run(
      'client-page:publish',
      org,
      '--chatbot',
      chatbot,
      '--slug',
      'acme-dental',
      '--organization-summary',
      'A dental clinic.',
      '--assistant-use-summary',
      'Answers questions about opening hours.',
      ...extra,
    );

  it('publish prints {ok, client_page_id, slug, url, status, changed}; list shows every page with its status', async () => {
    const published = await publish();
    expect(published.code).toBe(0);
    expect(published.json).toEqual({
      ok: true,
      client_page_id: expect.any(Number),
      slug: 'acme-dental',
      url: `${publicUrl}/clients/acme-dental`,
      status: 'published',
      changed: true,
    });
    expect((await publish()).json).toMatchObject({ ok: true, changed: false });
    const listed = await run('client-page:list', org);
    expect(listed.json).toEqual({
      ok: true,
      client_pages: [
        {
          client_page_id: published.json.client_page_id,
          chatbot_id: Number(chatbot),
          slug: 'acme-dental',
          url: `${publicUrl}/clients/acme-dental`,
          status: 'published',
          published_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          updated_at: expect.stringMatching(/Z$/),
          organization_summary: 'A dental clinic.',
          assistant_use_summary: 'Answers questions about opening hours.',
        },
      ],
    });
  });

  it('failures: JSON errors, exit 1, nothing published', async () => {
    const missing = await run('client-page:publish', org, '--chatbot', chatbot, '--slug', 'x-page');
    expect(missing).toMatchObject({ code: 1, json: { ok: false, error: { code: 'usage_error' } } });
    expect(missing.json.error.message).toContain('--organization-summary');
    const badSlug = await publish('--slug', 'Not A Slug');
    expect(badSlug).toMatchObject({
      code: 1,
      json: { error: { code: 'validation_failed', details: [{ field: 'slug' }] } },
    });
    const other = (await run('org:create', '--name', 'Other', '--website-url', 'https://other.example.com'))
      .json.organization_id;
    const foreign = await run(
      'client-page:publish',
      String(other),
      '--chatbot',
      chatbot,
      '--slug',
      'foreign',
      '--organization-summary',
      'A.',
      '--assistant-use-summary',
      'B.',
    );
    expect(foreign).toMatchObject({ code: 1, json: { error: { code: 'not_found' } } });
    const bare = (await run('org:create', '--name', 'No Website')).json.organization_id;
    const bareBot = (await run('chatbot:create', String(bare), '--name', 'Bot')).json.chatbot_id;
    const noWebsite = await run(
      'client-page:publish',
      String(bare),
      '--chatbot',
      String(bareBot),
      '--slug',
      'no-website',
      '--organization-summary',
      'A.',
      '--assistant-use-summary',
      'B.',
    );
    expect(noWebsite).toMatchObject({ code: 1, json: { error: { code: 'organization_website_required' } } });
    expect((await run('client-page:list', String(bare))).json).toEqual({ ok: true, client_pages: [] });
    expect(await run('client-page:unpublish', String(other), 'acme-dental')).toMatchObject({
      code: 1,
      json: { error: { code: 'not_found' } },
    });
    expect(await run('client-page:unpublish', org)).toMatchObject({
      code: 1,
      json: { error: { code: 'usage_error' } },
    });
    expect(await run('client-page:list', '999999')).toMatchObject({
      code: 1,
      json: { error: { code: 'not_found' } },
    });
  });

  it('read-your-writes with a server running on the same data directory: the next GET sees the change', async () => {
    const server = await startServerProcess({ CAIRN_DATA_DIR: dataDir, CAIRN_PUBLIC_RATE_LIMIT: '0' });
    const get = (path: string) => fetch(`${server.baseUrl}${path}`);
    const slugs = async () =>
      (
        (await (await get('/api/cairn-client-pages')).json()) as { clients: Array<{ slug: string }> }
      ).clients.map((c) => c.slug);
    expect((await get('/api/cairn-client-pages/acme-dental')).status).toBe(200);
    expect(await slugs()).toEqual(['acme-dental']);

    const unpublished = await run('client-page:unpublish', org, 'acme-dental');
    expect(unpublished.json).toEqual({
      ok: true,
      client_page_id: expect.any(Number),
      slug: 'acme-dental',
      status: 'unpublished',
      changed: true,
    });
    expect((await get('/api/cairn-client-pages/acme-dental')).status).toBe(404);
    expect(await slugs()).toEqual([]);
    expect((await get('/clients/acme-dental')).status).toBe(404);
    expect((await run('client-page:list', org)).json.client_pages[0].status).toBe('unpublished');

    expect((await publish()).json).toMatchObject({ changed: true });
    expect((await get('/api/cairn-client-pages/acme-dental')).status).toBe(200);
    expect(await slugs()).toEqual(['acme-dental']);
    await server.stop();
    expect(server.problems()).toEqual([]);
  });
});
