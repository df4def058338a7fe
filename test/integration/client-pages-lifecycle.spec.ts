import { seedDemo } from '../../src/demo/seed-demo';
import { ProjectionRunner } from '../../src/projections/projection-runner';
import { clientPagesProjection } from '../../src/projections/client-pages.projection';
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
import { readEvents } from '../support/server-process';
import { http, type TestApp } from '../support/test-app';

const LIST = '/api/cairn-client-pages';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

describe('client pages: publish, update, unpublish (command → read model → HTTP)', () => {
  let t: TestApp & { clock: ManualClock };
  const listed = async (): Promise<string[]> =>
    (await http(t.baseUrl, 'GET', `${LIST}?per_page=24`)).body.clients.map((c: { slug: string }) => c.slug);

  beforeAll(async () => {
    t = await startClientPagesApp();
  });
  afterAll(async () => t.close());

  it('publish returns the public URL; publishing the same content again appends nothing', async () => {
    const organization = await registerOrganization(t.commands, 'Idem', 'idem', 'https://idem.example.com');
    const chatbot = await createChatbot(t.commands, organization.organization_id, 'Idem bot', null);
    const publish = () =>
      publishPage(
        t.commands,
        organization.organization_id,
        chatbot.chatbot_id,
        'idem-page',
        ' Who\nwe are. ',
        'Use.',
      );
    const first = await publish();
    expect(first).toEqual({
      client_page_id: expect.any(Number),
      slug: 'idem-page',
      url: `${PUBLIC_URL}/clients/idem-page`,
      status: 'published',
      changed: true,
    });
    const head = await t.stores.eventStore.headPosition();
    expect(await publish()).toEqual({ ...first, changed: false });
    expect(await t.stores.eventStore.headPosition()).toBe(head);
    expect((await http(t.baseUrl, 'GET', `${LIST}/idem-page`)).body.content.organization_summary).toBe(
      'Who we are.',
    );
  });

  it('one page per chatbot: publishing again with other content updates it (updated_at moves, published_at not)', async () => {
    t.clock.set('2026-04-01T08:00:00.000Z');
    const site = await publishClient(t.commands, { name: 'Mover', slug: 'mover-old' });
    t.clock.set('2026-04-09T12:30:00.250Z');
    const moved = await publishPage(
      t.commands,
      site.organization_id,
      site.chatbot_id,
      'mover-new',
      'New.',
      'Newer.',
    );
    expect(moved).toMatchObject({ slug: 'mover-new', changed: true });
    expect((await http(t.baseUrl, 'GET', `${LIST}/mover-old`)).status).toBe(404);
    const detail = await http(t.baseUrl, 'GET', `${LIST}/mover-new`);
    expect(detail.body.chatbot.published_at).toBe('2026-04-01');
    expect(detail.body.client_page.updated_at).toBe('2026-04-09T12:30:00.250Z');
    expect(detail.body.content).toEqual({ organization_summary: 'New.', assistant_use_summary: 'Newer.' });
    expect((await listed()).filter((slug) => slug.startsWith('mover'))).toEqual(['mover-new']);
    const events = await readEvents(t.dataDir, `client-page-${moved.client_page_id}`);
    expect(events.map((e) => e.type)).toEqual(['ClientPagePublished', 'ClientPageUpdated']);
    expect(events[1].data).toMatchObject({ slug: 'mover-new', previous_slug: 'mover-old' });
  });

  it('slugs are unique among client pages for good: taken, and old slugs stay reserved', async () => {
    const other = await registerOrganization(t.commands, 'Thief', 'thief', 'https://thief.example.com');
    const bot = await createChatbot(t.commands, other.organization_id, 'Thief bot', null);
    for (const slug of ['mover-new', 'mover-old']) {
      expect(
        await rejection(publishPage(t.commands, other.organization_id, bot.chatbot_id, slug, 'A.', 'B.')),
      ).toMatchObject({ status: 409, code: 'slug_taken' });
    }
    expect((await http(t.baseUrl, 'GET', `${LIST}/mover-new`)).body.organization.name).toBe('Mover');
  });

  it('unpublish: gone from list and detail at once; republish brings it back with a new published_at', async () => {
    t.clock.set('2026-05-01T00:00:00.000Z');
    const site = await publishClient(t.commands, { name: 'Blinker', slug: 'blinker' });
    expect(await listed()).toContain('blinker');
    t.clock.set('2026-05-02T00:00:00.000Z');
    expect(await unpublishPage(t.commands, site.organization_id, 'blinker')).toMatchObject({
      slug: 'blinker',
      status: 'unpublished',
      changed: true,
    });
    expect(await listed()).not.toContain('blinker');
    expect((await http(t.baseUrl, 'GET', `${LIST}/blinker`)).status).toBe(404);
    expect(await unpublishPage(t.commands, site.organization_id, 'blinker')).toMatchObject({
      changed: false,
    });
    t.clock.set('2026-06-01T00:00:00.000Z');
    await publishPage(
      t.commands,
      site.organization_id,
      site.chatbot_id,
      'blinker',
      'Blinker is an organization.',
      'The assistant answers visitor questions.',
    );
    const back = await http(t.baseUrl, 'GET', `${LIST}/blinker`);
    expect(back.body.chatbot.published_at).toBe('2026-06-01');
    expect(back.body.client_page.updated_at).toBe('2026-06-01T00:00:00.000Z');
  });

  it('refuses: another organization’s chatbot (404), no public website (409), bad values (422)', async () => {
    const site = await publishClient(t.commands, { name: 'Owner', slug: 'owner-page' });
    const stranger = await registerOrganization(
      t.commands,
      'Stranger',
      'stranger',
      'https://stranger.example.com',
    );
    const head = await t.stores.eventStore.headPosition();
    expect(
      await rejection(
        publishPage(t.commands, stranger.organization_id, site.chatbot_id, 'stolen', 'A.', 'B.'),
      ),
    ).toMatchObject({ status: 404, code: 'not_found' });
    expect(await rejection(unpublishPage(t.commands, stranger.organization_id, 'owner-page'))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
    for (const [index, website] of [null, 'http://localhost:8080/', 'http://192.168.0.10/'].entries()) {
      const organization = await registerOrganization(t.commands, 'Private', `private-${index}`, website);
      const bot = await createChatbot(t.commands, organization.organization_id, 'Bot', null);
      const before = await t.stores.eventStore.headPosition();
      expect(
        await rejection(
          publishPage(t.commands, organization.organization_id, bot.chatbot_id, 'private', 'A.', 'B.'),
        ),
      ).toMatchObject({
        status: 409,
        code: 'organization_website_required',
        details: [{ field: 'website_url' }],
      });
      expect(await t.stores.eventStore.headPosition()).toBe(before);
    }
    const after = await t.stores.eventStore.headPosition();
    const invalid: Array<[string, string, string, string]> = [
      ['Bad', 'A.', 'B.', 'slug'],
      ['ok-slug', '', 'B.', 'organization_summary'],
      ['ok-slug', 'A.', 'x'.repeat(601), 'assistant_use_summary'],
      ['ok-slug', 'A\u0007', 'B.', 'organization_summary'],
    ];
    for (const [slug, organizationSummary, assistantUseSummary, field] of invalid) {
      expect(
        await rejection(
          publishPage(
            t.commands,
            site.organization_id,
            site.chatbot_id,
            slug,
            organizationSummary,
            assistantUseSummary,
          ),
        ),
      ).toMatchObject({ status: 422, code: 'validation_failed', details: [{ field }] });
    }
    expect(await t.stores.eventStore.headPosition()).toBeGreaterThan(head); // the organizations above
    expect(await t.stores.eventStore.headPosition()).toBe(after);
  });

  it("the demo publishes its organization's page once (npm start shows it at /clients)", async () => {
    const demo = await seedDemo(t.app);
    expect(demo.client_page_url).toBe(`${PUBLIC_URL}/clients/harbor-dental`);
    const page = await fetch(`${t.baseUrl}/clients/harbor-dental`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Harbor Dental Clinic');
    const head = await t.stores.eventStore.headPosition();
    expect((await seedDemo(t.app)).created).toBe(false);
    expect(await t.stores.eventStore.headPosition()).toBe(head);
  });

  it('projections:rebuild of client-pages reproduces the live read model exactly', async () => {
    const runner = t.app.get(ProjectionRunner);
    const snapshot = async () =>
      Promise.all(
        clientPagesProjection.collections.map(
          async (c) => (await t.stores.readStore.find(c.name, { limit: 10_000 })).items,
        ),
      );
    const live = await snapshot();
    expect(live[0].length).toBeGreaterThan(3);
    await runner.rebuild(['client-pages'], 30_000);
    expect(await snapshot()).toEqual(live);
  });
});
