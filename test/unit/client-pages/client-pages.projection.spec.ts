import type { RecordedEvent } from '../../../src/infrastructure/event-store/event-store.port';
import type { ReadDocument } from '../../../src/infrastructure/read-store/read-store.port';
import {
  CLIENT_PAGE_DIRECTORY,
  CLIENT_PAGES,
  clientPagesProjection,
  DIRECTORY_ID,
  type ClientPageDocument,
} from '../../../src/projections/client-pages.projection';
import type { ProjectionContext } from '../../../src/projections/projection';

/** The projection's writes, in memory. */
class MemoryContext implements ProjectionContext {
  readonly collections = new Map<string, Map<string, ReadDocument>>();
  async get<T extends ReadDocument = ReadDocument>(collection: string, id: string): Promise<T | null> {
    return (this.collections.get(collection)?.get(id) as T | undefined) ?? null;
  }
  put(collection: string, doc: ReadDocument): void {
    if (!this.collections.has(collection)) this.collections.set(collection, new Map());
    this.collections.get(collection)!.set(doc.id, structuredClone(doc));
  }
  delete(collection: string, id: string): void {
    this.collections.get(collection)?.delete(id);
  }
  indexDocument(): void {
    throw new Error('client pages use no search index');
  }
  removeDocument(): void {
    throw new Error('client pages use no search index');
  }
}

let position = 0;
function recorded(type: string, data: Record<string, unknown>, at: string): RecordedEvent {
  position += 1;
  return {
    event_id: `e${position}`,
    stream: 's',
    revision: 0,
    position,
    type,
    data,
    metadata: {
      organization_id: null,
      correlation_id: 'c',
      causation_id: null,
      actor: 'operator:test',
      occurred_at: at,
      schema_version: 1,
    },
  } as unknown as RecordedEvent;
}

const page = {
  client_page_id: 3,
  organization_id: 1,
  chatbot_id: 2,
  slug: 'acme',
  organization_summary: 'Ölfarben and paints.',
  assistant_use_summary: 'Answers questions.',
};

async function run(
  events: Array<[string, Record<string, unknown>, string]>,
  context = new MemoryContext(),
): Promise<MemoryContext> {
  for (const [type, data, at] of events) await clientPagesProjection.apply(recorded(type, data, at), context);
  return context;
}

const organization = (website: string | null) =>
  [
    'OrganizationRegistered',
    { organization_id: 1, name: 'Ätna Paints', slug: 'aetna', website_url: website },
    '2026-01-01T00:00:00.000Z',
  ] as [string, Record<string, unknown>, string];
const chatbot = [
  'ChatbotCreated',
  { chatbot_id: 2, organization_id: 1, name: 'Paint bot', allowed_domain: null },
  '2026-01-01T00:00:01.000Z',
] as [string, Record<string, unknown>, string];
const published = ['ClientPagePublished', page, '2026-01-02T10:00:00.123Z'] as [
  string,
  Record<string, unknown>,
  string,
];

describe('client-pages projection', () => {
  it('joins organization and chatbot into the page; sort and search keys ignore case and accents', async () => {
    const context = await run([organization('https://www.aetna-paints.com/shop'), chatbot, published]);
    const doc = await context.get<ClientPageDocument>(CLIENT_PAGES, '3');
    expect(doc).toMatchObject({
      status: 'published',
      name: 'Ätna Paints',
      organization_slug: 'aetna',
      website_url: 'https://www.aetna-paints.com/shop',
      website_host: 'www.aetna-paints.com',
      chatbot_name: 'Paint bot',
      allowed_domain: '',
      name_key: 'atna paints',
      published_at: '2026-01-02T10:00:00.123Z',
      updated_at: '2026-01-02T10:00:00.123Z',
    });
    expect(doc?.search_text).toBe('atna paints\nolfarben and paints.\nanswers questions.');
    expect(await context.get(CLIENT_PAGE_DIRECTORY, DIRECTORY_ID)).toEqual({
      id: DIRECTORY_ID,
      last_changed_at: '2026-01-02T10:00:00.123Z',
      revision: 1,
    });
  });

  it('a page of an organization without a public website is hidden, not published', async () => {
    for (const website of [null, 'http://localhost:8080/', 'http://192.168.1.10/']) {
      const context = await run([organization(website), chatbot, published]);
      const doc = await context.get<ClientPageDocument>(CLIENT_PAGES, '3');
      expect(doc).toMatchObject({ status: 'hidden', website_host: '' });
      // Nothing public changed: the directory never moved.
      expect(await context.get(CLIENT_PAGE_DIRECTORY, DIRECTORY_ID)).toBeNull();
    }
  });

  it('an update moves updated_at but not published_at; unpublishing moves the directory', async () => {
    const context = await run([
      organization('https://aetna-paints.com/'),
      chatbot,
      published,
      [
        'ClientPageUpdated',
        { ...page, assistant_use_summary: 'Mixes colours.', previous_slug: null },
        '2026-01-05T00:00:00.500Z',
      ],
    ]);
    expect(await context.get(CLIENT_PAGES, '3')).toMatchObject({
      published_at: '2026-01-02T10:00:00.123Z',
      updated_at: '2026-01-05T00:00:00.500Z',
    });
    await run(
      [
        [
          'ClientPageUnpublished',
          { client_page_id: 3, organization_id: 1, chatbot_id: 2, slug: 'acme' },
          '2026-01-06T00:00:00.000Z',
        ],
      ],
      context,
    );
    expect(await context.get(CLIENT_PAGES, '3')).toMatchObject({
      status: 'unpublished',
      updated_at: '2026-01-06T00:00:00.000Z',
    });
    expect(await context.get(CLIENT_PAGE_DIRECTORY, DIRECTORY_ID)).toMatchObject({
      last_changed_at: '2026-01-06T00:00:00.000Z',
    });
    await run([['ClientPagePublished', page, '2026-02-01T00:00:00.000Z']], context);
    expect(await context.get(CLIENT_PAGES, '3')).toMatchObject({
      status: 'published',
      published_at: '2026-02-01T00:00:00.000Z',
      updated_at: '2026-02-01T00:00:00.000Z',
    });
  });

  it('re-joins pages when their organization or chatbot is (re)registered, moving updated_at only on change', async () => {
    const context = await run([organization('https://aetna-paints.com/'), chatbot, published]);
    // The same registration again (e.g. replayed from an older stream) changes nothing visible.
    await run(
      [
        [
          organization('https://aetna-paints.com/')[0],
          organization('https://aetna-paints.com/')[1],
          '2026-03-01T00:00:00.000Z',
        ],
      ],
      context,
    );
    expect(await context.get(CLIENT_PAGES, '3')).toMatchObject({ updated_at: '2026-01-02T10:00:00.123Z' });
    // The website is gone: the page is hidden at once and the directory moves.
    await run(
      [
        [
          'OrganizationRegistered',
          { organization_id: 1, name: 'Ätna Paints', slug: 'aetna', website_url: null },
          '2026-03-02T00:00:00.000Z',
        ],
      ],
      context,
    );
    expect(await context.get(CLIENT_PAGES, '3')).toMatchObject({
      status: 'hidden',
      updated_at: '2026-03-02T00:00:00.000Z',
    });
    expect(await context.get(CLIENT_PAGE_DIRECTORY, DIRECTORY_ID)).toMatchObject({
      last_changed_at: '2026-03-02T00:00:00.000Z',
    });
    // A renamed chatbot shows on the page.
    await run(
      [
        [
          'ChatbotCreated',
          { chatbot_id: 2, organization_id: 1, name: 'Colour bot', allowed_domain: 'paint.example.com' },
          '2026-03-03T00:00:00.000Z',
        ],
      ],
      context,
    );
    expect(await context.get(CLIENT_PAGES, '3')).toMatchObject({
      chatbot_name: 'Colour bot',
      allowed_domain: 'paint.example.com',
      updated_at: '2026-03-03T00:00:00.000Z',
    });
  });
});
