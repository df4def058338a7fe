import { arrayOf, closed, integer, oneOfStrings, ref, str, type Schemas } from './schema-types';

const VISIBILITIES = ['tool_private', 'organization_internal'] as const;

/** One unsafe finding (an element of `unsafe_flags`; a blocked write's 422 lists them). */
const UnsafeFlag = closed({
  field: str('the request field the finding is in'),
  kind: str(undefined, 'secret'),
  rule: str('the rule that matched'),
  message: str(),
  line: integer('1-based line in the field'),
  column: integer('1-based column in the line'),
  length: integer('length of the finding in characters (the secret itself is never echoed)'),
});

const memoryItemFields = {
  memory_item_id: integer(),
  memory_source_id: integer(),
  memory_chunk_ids: arrayOf(integer(), 'chunks of the item that matched'),
  summary: str(),
  type: str(undefined, 'work_log'),
  source_label: str(),
  source_type: str(undefined, 'tool_work_log'),
  review_status: str(undefined, 'confirmed'),
  lifecycle_status: str(undefined, 'active'),
  freshness_category: oneOfStrings(['current', 'stale', 'expired']),
};

const ContextSectionEntry = closed({
  n: integer('the result number the context text cites as [n]'),
  memory_item_id: integer(),
  title: str(),
  excerpt: str(),
});

/** Schemas of spec §2.1–2.4 and §4.1–4.5. */
export const memorySchemas: Schemas = {
  UnsafeFlag,
  MemoryItem: closed(memoryItemFields, [], 'A memory item as a search result.'),
  MemoryItemWithContent: closed(
    { ...memoryItemFields, content: str('the item text') },
    [],
    'A memory item with its `content`: the fetch-one-item response.',
  ),
  ContextPackage: closed(
    {
      context: str('short text for the connector, at most 4,000 characters'),
      summary: str(),
      sections: {
        type: 'object',
        description: 'results grouped by memory item type',
        additionalProperties: arrayOf(ContextSectionEntry),
      },
    },
    [],
    'A compact context for the connector: the results as short text and grouped by type.',
  ),
  SearchMemoryResponse: closed(
    {
      ok: { const: true },
      trace_id: integer('keep it to report usage (POST …/memory/usage)'),
      results: arrayOf(ref('MemoryItem')),
      context_package: ref('ContextPackage'),
    },
    ['context_package'],
    'Search results (possibly none); `context_package` only when `include_context_package` is true.',
  ),
  SaveMemoryResponse: closed(
    {
      ok: { const: true },
      memory_source_id: integer(),
      memory_item_id: integer(),
      status: oneOfStrings(['confirmed']),
      visibility: oneOfStrings(VISIBILITIES),
      unsafe_flags: {
        ...arrayOf(ref('UnsafeFlag')),
        maxItems: 0,
        description: 'always empty: unsafe is 422',
      },
    },
    [],
    'The saved internal note.',
  ),
  ForgetMemoryResponse: closed(
    {
      ok: { const: true },
      memory_item_id: integer(),
      erased: { const: true },
      changed: { type: 'boolean' },
      erased_at: { type: 'string', format: 'date-time' },
    },
    [],
    'An erased item (docs/api.md "Erasure").',
  ),
  ProposeMemoryResponse: closed(
    {
      ok: { const: true },
      memory_source_id: integer(),
      proposal_id: integer(),
      status: oneOfStrings(['captured']),
      unsafe_flags: {
        ...arrayOf(ref('UnsafeFlag')),
        maxItems: 0,
        description: 'always empty: unsafe is 422',
      },
    },
    [],
    'The captured proposal, waiting for an operator’s review.',
  ),
  OkResponse: closed({ ok: { const: true } }, [], '`{ok: true}`: recorded.'),
};
