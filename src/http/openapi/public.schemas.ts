import { arrayOf, closed, integer, oneOfStrings, ref, str, type Schemas } from './schema-types';

const SORTS = ['name', 'newest', 'updated'] as const;
const date: Record<string, unknown> = { type: 'string', format: 'date', description: 'YYYY-MM-DD (UTC)' };

const PageMeta = closed({
  title: str(),
  description: str(),
  canonical_url: { type: 'string', format: 'uri' },
});

const PaginationLink = closed(
  {
    url: { type: ['string', 'null'], description: 'null for "…" and for an unavailable Previous/Next' },
    label: str('"Previous", a page number, "…" or "Next"'),
    page: { type: ['integer', 'null'] },
    active: { type: 'boolean' },
  },
  [],
  'One link of the pagination window: Previous, 1 … 4 5 [6] 7 8 … 20, Next.',
);

/** Schemas of spec §2.10, §2.11, §4.8, §4.9, and the error shape of every non-2xx JSON response. */
export const publicSchemas: Schemas = {
  PageMeta,
  PaginationLink,
  ClientDirectoryEntry: closed(
    {
      name: str(),
      slug: str(),
      url: { type: 'string', format: 'uri' },
      website_url: { type: 'string', format: 'uri' },
      website_host: str(),
      allowed_domain: str(),
      published_at: date,
      organization_summary: str(),
      assistant_use_summary: str(),
    },
    [],
    'One published client in the directory.',
  ),
  ClientDirectory: closed(
    {
      meta: ref('PageMeta'),
      filters: closed({
        q: str(),
        sort: oneOfStrings(SORTS),
        sort_options: closed(Object.fromEntries(SORTS.map((sort) => [sort, str('display label')]))),
      }),
      clients: arrayOf(ref('ClientDirectoryEntry')),
      pagination: closed({
        current_page: integer(),
        last_page: integer(),
        per_page: integer(),
        total: integer(),
        links: arrayOf(ref('PaginationLink')),
      }),
      total: integer(),
      summary: str(),
    },
    [],
    'One page of the public client directory.',
  ),
  ClientPageDetail: closed(
    {
      meta: ref('PageMeta'),
      organization: closed({
        name: str(),
        slug: str(),
        website_url: { type: 'string', format: 'uri' },
        website_host: str(),
      }),
      chatbot: closed({ name: str(), published_at: date, allowed_domain: str() }),
      client_page: closed({
        slug: str(),
        url: { type: 'string', format: 'uri' },
        status: oneOfStrings(['published']),
        updated_at: { type: 'string', format: 'date-time' },
      }),
      content: closed({ organization_summary: str(), assistant_use_summary: str() }),
    },
    [],
    'One published client page.',
  ),
  ErrorDetail: {
    type: 'object',
    description:
      'One problem. `field` names the offending field when there is one; a 429 detail says when to retry ' +
      '(`retryable`, `retry_after_ms`); a 403 detail names the missing `capability`; a blocked unsafe write has one ' +
      'detail per finding (its `kind`, `rule`, …). Other keys may say more.',
    properties: {
      field: str('dotted path of the field'),
      message: str('human text'),
      retryable: { type: 'boolean', description: 'true when the same request may succeed later' },
      retry_after_ms: {
        type: 'integer',
        minimum: 0,
        description: 'milliseconds to wait before retrying (with the same idempotency identity)',
      },
      capability: str('the capability the token lacks', 'memory_search'),
    },
    required: ['message'],
  },
  HttpServerError: closed(
    {
      error: str(undefined, 'Service Unavailable'),
      message: str(undefined, 'Service Unavailable'),
      statusCode: integer('the HTTP status again'),
    },
    [],
    'Written by the HTTP server itself, before any route runs: 431 when the request headers are too large, 503 ' +
      'while the server shuts down.',
  ),
  Error: {
    type: 'object',
    description:
      'Every non-2xx JSON response. A blocked unsafe save or proposal (422 unsafe_content) also carries `unsafe_flags`.',
    properties: {
      ok: { const: false },
      error: closed({
        code: str('snake_case; says which error', 'validation_failed'),
        message: str('human text'),
        details: arrayOf(ref('ErrorDetail')),
      }),
      unsafe_flags: arrayOf(ref('UnsafeFlag')),
    },
    required: ['ok', 'error'],
    additionalProperties: false,
  },
};
