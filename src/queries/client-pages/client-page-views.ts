import type { ClientPageDocument } from '../../projections/client-pages.projection';
import {
  type DirectoryParams,
  directoryQueryString,
  type DirectorySort,
  SORT_LABELS,
} from './directory-options';
import { pagination, type Pagination } from './directory-pagination';
import { directorySummary } from './directory-summary';

/**
 * The public JSON of the directory (spec §4.8, §2.10) and of one page (§4.9, §2.11), built from read-model
 * documents. Only the listed fields leave: never ids, search keys or the page's internal state.
 */
export interface PageMeta {
  title: string;
  description: string;
  canonical_url: string;
}

export interface ClientDirectoryEntry {
  name: string;
  slug: string;
  url: string;
  website_url: string;
  website_host: string;
  allowed_domain: string;
  /** `YYYY-MM-DD` (UTC). */
  published_at: string;
  organization_summary: string;
  assistant_use_summary: string;
}

export interface ClientDirectoryView {
  meta: PageMeta;
  filters: { q: string; sort: DirectorySort; sort_options: Record<DirectorySort, string> };
  clients: ClientDirectoryEntry[];
  pagination: Pagination;
  total: number;
  summary: string;
}

export interface ClientPageDetailView {
  meta: PageMeta;
  organization: { name: string; slug: string; website_url: string; website_host: string };
  chatbot: { name: string; published_at: string; allowed_domain: string };
  client_page: { slug: string; url: string; status: 'published'; updated_at: string };
  content: { organization_summary: string; assistant_use_summary: string };
}

export const SITE_NAME = 'Cairn';
const DIRECTORY_TITLE = 'Client directory';
const DIRECTORY_DESCRIPTION =
  'Organizations that use a Cairn website assistant: who they are and what their assistant helps visitors with.';
const DESCRIPTION_MAX = 160;

export const clientPageUrl = (publicUrl: string, slug: string): string => `${publicUrl}/clients/${slug}`;
export const directoryApiUrl = (publicUrl: string): string => `${publicUrl}/api/cairn-client-pages`;

/** `YYYY-MM-DD` of an ISO 8601 UTC timestamp. */
export const isoDate = (iso: string): string => new Date(iso).toISOString().slice(0, 10);

/** At most DESCRIPTION_MAX characters, cut at a word with "…". */
function description(text: string): string {
  if (text.length <= DESCRIPTION_MAX) return text;
  let cut = text.slice(0, DESCRIPTION_MAX - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1); // never split a surrogate pair
  const space = cut.lastIndexOf(' ');
  return `${(space > DESCRIPTION_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function clientEntry(doc: ClientPageDocument, publicUrl: string): ClientDirectoryEntry {
  return {
    name: doc.name,
    slug: doc.slug,
    url: clientPageUrl(publicUrl, doc.slug),
    website_url: doc.website_url,
    website_host: doc.website_host,
    allowed_domain: doc.allowed_domain,
    published_at: isoDate(doc.published_at),
    organization_summary: doc.organization_summary,
    assistant_use_summary: doc.assistant_use_summary,
  };
}

export function directoryView(
  params: DirectoryParams,
  found: { items: ClientPageDocument[]; total: number },
  publicUrl: string,
): ClientDirectoryView {
  const pages = pagination(
    params.page,
    params.per_page,
    found.total,
    (page) => `${directoryApiUrl(publicUrl)}${directoryQueryString(params, page)}`,
  );
  return {
    meta: {
      title:
        params.page > 1
          ? `${DIRECTORY_TITLE}, page ${params.page} — ${SITE_NAME}`
          : `${DIRECTORY_TITLE} — ${SITE_NAME}`,
      description: DIRECTORY_DESCRIPTION,
      canonical_url: `${publicUrl}/clients${params.page > 1 ? `?page=${params.page}` : ''}`,
    },
    filters: { q: params.q, sort: params.sort, sort_options: { ...SORT_LABELS } },
    clients: found.items.map((doc) => clientEntry(doc, publicUrl)),
    pagination: pages,
    total: found.total,
    summary: directorySummary({
      q: params.q,
      page: params.page,
      perPage: params.per_page,
      total: found.total,
      shown: found.items.length,
      lastPage: pages.last_page,
    }),
  };
}

export function clientPageDetailView(doc: ClientPageDocument, publicUrl: string): ClientPageDetailView {
  const url = clientPageUrl(publicUrl, doc.slug);
  return {
    meta: {
      title: `${doc.name} — ${SITE_NAME} client directory`,
      description: description(doc.organization_summary),
      canonical_url: url,
    },
    organization: {
      name: doc.name,
      slug: doc.organization_slug,
      website_url: doc.website_url,
      website_host: doc.website_host,
    },
    chatbot: {
      name: doc.chatbot_name,
      published_at: isoDate(doc.published_at),
      allowed_domain: doc.allowed_domain,
    },
    client_page: {
      slug: doc.slug,
      url,
      status: 'published',
      updated_at: new Date(doc.updated_at).toISOString(),
    },
    content: {
      organization_summary: doc.organization_summary,
      assistant_use_summary: doc.assistant_use_summary,
    },
  };
}
