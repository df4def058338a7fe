import type { ChatbotCreated } from '../events/chatbots/chatbot.events';
import type { ClientPageEvent } from '../events/client-pages/client-page.events';
import type { OrganizationRegistered } from '../events/organizations/organization.events';
import { unsafeLinkReason } from '../commands/replies/source-links';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { Projection, ProjectionContext } from './projection';

export const CLIENT_PAGES = 'client_pages';
/** This projection's own copies of the organization and chatbot fields pages show (`organization:{id}`, `chatbot:{id}`). */
export const CLIENT_PAGE_REFS = 'client_page_refs';
/** One document, `directory`: when the public directory last changed (the list's Last-Modified). */
export const CLIENT_PAGE_DIRECTORY = 'client_page_directory';
export const DIRECTORY_ID = 'directory';

/**
 * `published` is public. `hidden`: published by its organization but not shown, because the organization has no
 * public http(s) website (or its organization or chatbot is unknown). `unpublished`: taken down by an operator.
 */
export type ClientPageStatus = 'published' | 'unpublished' | 'hidden';

/** A client page joined with its organization and chatbot: everything the directory, detail and CLI show. */
export interface ClientPageDocument extends JoinedClientPage {
  /** When a publicly visible field or the status last changed (page, organization or chatbot events). */
  updated_at: string;
}

/** The page joined, before its `updated_at` is decided. */
export interface JoinedClientPage {
  id: string;
  client_page_id: number;
  organization_id: number;
  chatbot_id: number;
  slug: string;
  /** What the page's own events say; `status` is what the public sees. */
  publication: 'published' | 'unpublished';
  status: ClientPageStatus;
  organization_summary: string;
  assistant_use_summary: string;
  /** The organization's name, slug and website ('' while unknown), the website's host name. */
  name: string;
  organization_slug: string;
  website_url: string;
  website_host: string;
  chatbot_name: string;
  /** The chatbot's allowed domain, '' when it has none. */
  allowed_domain: string;
  /** Sort key of `name`: accents removed, lower-cased. */
  name_key: string;
  /** Name and both summaries, accents removed, lower-cased, one per line (`q` matches inside one of them). */
  search_text: string;
  /** When the current (or last) publication started: ISO 8601 UTC with milliseconds. */
  published_at: string;
  [key: string]: unknown;
}

export interface OrganizationRef {
  id: string;
  organization_id: number;
  name: string;
  slug: string;
  website_url: string | null;
  page_ids: number[];
  [key: string]: unknown;
}

export interface ChatbotRef {
  id: string;
  chatbot_id: number;
  organization_id: number;
  name: string;
  allowed_domain: string | null;
  page_id: number | null;
  [key: string]: unknown;
}

export interface DirectoryState {
  id: string;
  last_changed_at: string;
  /** Counts every change of the public directory (queries keep a snapshot per revision). */
  revision: number;
  [key: string]: unknown;
}

type PageOwn = Pick<
  ClientPageDocument,
  | 'client_page_id'
  | 'organization_id'
  | 'chatbot_id'
  | 'slug'
  | 'publication'
  | 'organization_summary'
  | 'assistant_use_summary'
  | 'published_at'
>;

/** Accent- and case-insensitive form for sorting and substring search (NFKD, marks removed, lower-cased). */
export function foldText(value: string): string {
  return value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

const organizationRefId = (id: number): string => `organization:${id}`;
const chatbotRefId = (id: number): string => `chatbot:${id}`;

function isPublicWebsite(url: string | null): url is string {
  return url !== null && unsafeLinkReason(url) === null;
}

/** The page as the public would see it, joined with its organization and chatbot (pure). */
export function joinClientPage(
  own: PageOwn,
  organization: OrganizationRef | null,
  chatbot: ChatbotRef | null,
): JoinedClientPage {
  const website = organization?.website_url ?? null;
  const visible = organization !== null && chatbot !== null && isPublicWebsite(website);
  const name = organization?.name ?? '';
  return {
    id: String(own.client_page_id),
    ...own,
    status: own.publication === 'unpublished' ? 'unpublished' : visible ? 'published' : 'hidden',
    name,
    organization_slug: organization?.slug ?? '',
    website_url: website ?? '',
    website_host: isPublicWebsite(website) ? new URL(website).hostname : '',
    chatbot_name: chatbot?.name ?? '',
    allowed_domain: chatbot?.allowed_domain ?? '',
    name_key: foldText(name),
    search_text: foldText([name, own.organization_summary, own.assistant_use_summary].join('\n')),
  };
}

/** Everything a visitor can tell apart: a change to any of it moves `updated_at`. */
function publicFingerprint(doc: JoinedClientPage): string {
  return JSON.stringify([
    doc.status,
    doc.slug,
    doc.name,
    doc.organization_slug,
    doc.website_url,
    doc.chatbot_name,
    doc.allowed_domain,
    doc.published_at,
    doc.organization_summary,
    doc.assistant_use_summary,
  ]);
}

/** Writes the page joined anew; moves its `updated_at` (and the directory's) only when the public view changed. */
async function writePage(context: ProjectionContext, at: string, own: PageOwn): Promise<void> {
  const [previous, organization, chatbot] = await Promise.all([
    context.get<ClientPageDocument>(CLIENT_PAGES, String(own.client_page_id)),
    context.get<OrganizationRef>(CLIENT_PAGE_REFS, organizationRefId(own.organization_id)),
    context.get<ChatbotRef>(CLIENT_PAGE_REFS, chatbotRefId(own.chatbot_id)),
  ]);
  const joined = joinClientPage(own, organization, chatbot);
  const changed = previous === null || publicFingerprint(previous) !== publicFingerprint(joined);
  context.put(CLIENT_PAGES, {
    ...joined,
    updated_at: changed || previous === null ? at : previous.updated_at,
  });
  if (changed && (previous?.status === 'published' || joined.status === 'published')) {
    const state = await context.get<DirectoryState>(CLIENT_PAGE_DIRECTORY, DIRECTORY_ID);
    context.put(CLIENT_PAGE_DIRECTORY, {
      id: DIRECTORY_ID,
      last_changed_at: state === null || state.last_changed_at < at ? at : state.last_changed_at,
      revision: (state?.revision ?? 0) + 1,
    });
  }
}

/** Re-joins existing pages after their organization's or chatbot's fields changed. */
async function refreshPages(
  context: ProjectionContext,
  at: string,
  pageIds: readonly number[],
): Promise<void> {
  for (const pageId of pageIds) {
    const page = await context.get<ClientPageDocument>(CLIENT_PAGES, String(pageId));
    if (page !== null) await writePage(context, at, ownFields(page));
  }
}

function ownFields(page: PageOwn): PageOwn {
  const { client_page_id, organization_id, chatbot_id, slug, publication } = page;
  const { organization_summary, assistant_use_summary, published_at } = page;
  return {
    client_page_id,
    organization_id,
    chatbot_id,
    slug,
    publication,
    organization_summary,
    assistant_use_summary,
    published_at,
  };
}

async function applyOrganization(context: ProjectionContext, at: string, event: OrganizationRegistered) {
  const { organization_id, name, slug, website_url } = event.data;
  const id = organizationRefId(organization_id);
  const current = await context.get<OrganizationRef>(CLIENT_PAGE_REFS, id);
  const ref: OrganizationRef = {
    id,
    organization_id,
    name,
    slug,
    website_url,
    page_ids: current?.page_ids ?? [],
  };
  context.put(CLIENT_PAGE_REFS, ref);
  await refreshPages(context, at, ref.page_ids);
}

async function applyChatbot(context: ProjectionContext, at: string, event: ChatbotCreated) {
  const { chatbot_id, organization_id, name, allowed_domain } = event.data;
  const id = chatbotRefId(chatbot_id);
  const current = await context.get<ChatbotRef>(CLIENT_PAGE_REFS, id);
  const ref: ChatbotRef = {
    id,
    chatbot_id,
    organization_id,
    name,
    allowed_domain,
    page_id: current?.page_id ?? null,
  };
  context.put(CLIENT_PAGE_REFS, ref);
  if (ref.page_id !== null) await refreshPages(context, at, [ref.page_id]);
}

/** Links a page to its organization's and chatbot's refs (creating placeholders that registration fills in). */
async function linkPage(context: ProjectionContext, own: PageOwn): Promise<void> {
  const orgId = organizationRefId(own.organization_id);
  const organization = await context.get<OrganizationRef>(CLIENT_PAGE_REFS, orgId);
  if (!organization?.page_ids.includes(own.client_page_id)) {
    const base = organization ?? {
      id: orgId,
      organization_id: own.organization_id,
      name: '',
      slug: '',
      website_url: null,
      page_ids: [],
    };
    context.put(CLIENT_PAGE_REFS, { ...base, page_ids: [...base.page_ids, own.client_page_id] });
  }
  const botId = chatbotRefId(own.chatbot_id);
  const chatbot = await context.get<ChatbotRef>(CLIENT_PAGE_REFS, botId);
  if (chatbot?.page_id !== own.client_page_id) {
    const base = chatbot ?? {
      id: botId,
      chatbot_id: own.chatbot_id,
      organization_id: own.organization_id,
      name: '',
      allowed_domain: null,
      page_id: null,
    };
    context.put(CLIENT_PAGE_REFS, { ...base, page_id: own.client_page_id });
  }
}

async function applyPage(context: ProjectionContext, at: string, event: ClientPageEvent): Promise<void> {
  const previous = await context.get<ClientPageDocument>(CLIENT_PAGES, String(event.data.client_page_id));
  if (event.type === 'ClientPageUnpublished') {
    if (previous !== null)
      await writePage(context, at, { ...ownFields(previous), publication: 'unpublished' });
    return;
  }
  const { client_page_id, organization_id, chatbot_id, slug, organization_summary, assistant_use_summary } =
    event.data;
  const own: PageOwn = {
    client_page_id,
    organization_id,
    chatbot_id,
    slug,
    publication: 'published',
    organization_summary,
    assistant_use_summary,
    published_at: event.type === 'ClientPagePublished' || previous === null ? at : previous.published_at,
  };
  await linkPage(context, own);
  await writePage(context, at, own);
}

type Handled = OrganizationRegistered | ChatbotCreated | ClientPageEvent;

/**
 * The public client directory (spec §2.10, §2.11). Pages are joined here with their organization (name, slug,
 * website) and chatbot (name, allowed domain), and re-joined whenever those change, so queries read one
 * collection. The CLI lists every page of an organization from it, unpublished and hidden ones included.
 */
export const clientPagesProjection: Projection = {
  name: 'client-pages',
  version: 2,
  collections: [
    {
      name: CLIENT_PAGES,
      // Sorting and `q` happen on an in-memory snapshot (directory-snapshot.ts): only lookups are indexed.
      indexes: ['status', 'organization_id', 'slug'],
    },
    { name: CLIENT_PAGE_REFS, indexes: [] },
    { name: CLIENT_PAGE_DIRECTORY, indexes: [] },
  ],
  eventTypes: new Set<Handled['type']>([
    'OrganizationRegistered',
    'ChatbotCreated',
    'ClientPagePublished',
    'ClientPageUpdated',
    'ClientPageUnpublished',
  ]),
  async apply(recorded: RecordedEvent, context: ProjectionContext) {
    const event = recorded as unknown as Handled;
    const at = recorded.metadata.occurred_at;
    switch (event.type) {
      case 'OrganizationRegistered':
        return applyOrganization(context, at, event);
      case 'ChatbotCreated':
        return applyChatbot(context, at, event);
      default:
        return applyPage(context, at, event);
    }
  },
};
