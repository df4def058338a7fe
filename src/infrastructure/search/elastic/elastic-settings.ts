/**
 * The Elasticsearch index layout, kept equivalent to the embedded index (src/infrastructure/search/sqlite):
 *
 * - Analysis `cairn_english`, the twin of analyzer.ts: the same words (a pattern tokenizer with the scanner's
 *   word pattern), English possessive, lower case, ASCII folding (the embedded index drops combining marks; the
 *   two differ only on letters without a decomposition, such as ø or ß), Lucene's English stop words, Porter.
 * - Similarity: the index's `default` similarity is BM25 with the embedded index's k1 and b (bm25.ts). It is set
 *   index-wide, never per field: Elasticsearch refuses a `combined_fields` query over fields with a per-field
 *   `similarity` ("[combined_fields] queries cannot be used with per-field similarities").
 * - Search (see textQuery()): `combined_fields` over title and body, which is BM25F (Lucene's
 *   CombinedFieldQuery), like the embedded index's scoring of title and body as one field with the title weighted.
 * - Filter fields by JSON type (see typedFields()): `fields` is kept in `_source` only (not indexed); each value is
 *   indexed under the path of its JSON type, `strings.<name>` (keyword), `numbers.<name>` (double) or
 *   `booleans.<name>` (boolean). A field may hold a string in one document and a number in another without a
 *   mapping conflict (no write is ever refused for its type), and a filter value queries only the path of its own
 *   type, so "1", 1 and true stay three values as in the embedded index and no filter is a 400.
 *
 * LAYOUT is part of the physical index name (`<name>-v<LAYOUT>`): a new layout is a new index, filled from the
 * previous one by a server-side reindex in init() (see ElasticSearchIndex.init()).
 */
import type { estypes } from '@elastic/elasticsearch';
import type { FilterValue } from '../search-index.port';
import { WORD_PATTERN } from '../sqlite/analyzer';
import { BM25_B, BM25_K1 } from '../sqlite/bm25';

export const LAYOUT = 4;

type Query = estypes.QueryDslQueryContainer;

/** The three typed copies of `fields`, by the JSON type of their values. */
export const TYPED_PATHS = { string: 'strings', number: 'numbers', boolean: 'booleans' } as const;

export type TypedFields = Record<
  (typeof TYPED_PATHS)[keyof typeof TYPED_PATHS],
  Record<string, string | number | boolean>
>;

/** Splits a document's `fields` by JSON type (null values are simply absent: a null filter is "no value"). */
export function typedFields(fields: Readonly<Record<string, FilterValue>>): TypedFields {
  const typed: TypedFields = { strings: {}, numbers: {}, booleans: {} };
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') typed.strings[name] = value;
    else if (typeof value === 'number') typed.numbers[name] = value;
    else if (typeof value === 'boolean') typed.booleans[name] = value;
  }
  return typed;
}

function typedTemplate(
  path: string,
  mapping: estypes.MappingProperty,
): Partial<Record<string, estypes.MappingDynamicTemplate>> {
  // match_mapping_type '*': whatever JSON type ES detects, the path's own type applies (only one ever arrives).
  return { [`${path}_values`]: { path_match: `${path}.*`, match_mapping_type: '*', mapping } };
}

const TEXT: estypes.MappingProperty = { type: 'text', analyzer: 'cairn_english' };

export const MAPPINGS: estypes.MappingTypeMapping = {
  dynamic: 'strict',
  date_detection: false,
  numeric_detection: false,
  _meta: { cairn_search_layout: LAYOUT },
  dynamic_templates: [
    typedTemplate(TYPED_PATHS.string, { type: 'keyword', ignore_above: 8191 }),
    // Every number is a JavaScript double: a field first seen as 1 must still hold 2.5 (no long truncation).
    typedTemplate(TYPED_PATHS.number, { type: 'double' }),
    typedTemplate(TYPED_PATHS.boolean, { type: 'boolean' }),
  ],
  properties: {
    id: { type: 'keyword' },
    organization_id: { type: 'keyword' },
    title: TEXT,
    body: TEXT,
    // Returned with hits as written; filtered through the typed copies below.
    fields: { type: 'object', enabled: false },
    strings: { type: 'object', dynamic: true },
    numbers: { type: 'object', dynamic: true },
    booleans: { type: 'object', dynamic: true },
    // What SearchQuery.collapse collapses by (collapseKey()): one value per document, never missing.
    collapse_key: { type: 'keyword' },
    version: { type: 'long' },
    deleted: { type: 'boolean' },
  },
};

/** A collapsed search's clause: one hit per collapse key, its best `maxMembers` matches as inner hits. */
export function collapseClause(maxMembers: number): estypes.SearchFieldCollapse {
  return {
    field: 'collapse_key',
    inner_hits: {
      name: 'members',
      size: maxMembers,
      _source: ['id', 'fields'],
      sort: [{ _score: { order: 'desc' } }, { id: { order: 'asc' } }],
      // Scores are computed even though the hits are sorted (as the outer sort's _score is).
      track_scores: true,
    },
  };
}

/**
 * A document's collapse key: its collapse value (search-input.ts collapseValue()) as a string, or `doc:` and its
 * id when it has none (its own hit: Elasticsearch would collapse every document missing the field into one).
 */
export function collapseKey(id: string, value: number): string {
  return value >= 0 ? String(value) : `doc:${id}`;
}

/**
 * Painless for the reindex from layout 3 (no collapse key; layout 2 too: one `fields` object mapped by dynamic
 * templates) to this layout: the same split as typedFields() and the same key as collapseKey() of `field`.
 */
export const fromLayout3Script = (field: string): string =>
  [
    ...FROM_LAYOUT_2_SCRIPT,
    `def k = f == null ? null : f.get('${field}');`,
    'if (k instanceof Number && k.doubleValue() >= 0 && k.doubleValue() <= 9007199254740991.0',
    '&& k.doubleValue() == Math.floor(k.doubleValue())) { ctx._source.collapse_key = String.valueOf(k.longValue()); }',
    "else { ctx._source.collapse_key = 'doc:' + ctx._source.id; }",
  ].join(' ');

const FROM_LAYOUT_2_SCRIPT = [
  'Map s = new HashMap(); Map n = new HashMap(); Map b = new HashMap();',
  'Map f = ctx._source.fields;',
  'if (f != null) { for (def e : f.entrySet()) { def v = e.getValue();',
  'if (v instanceof String) { s.put(e.getKey(), v); }',
  'else if (v instanceof Boolean) { b.put(e.getKey(), v); }',
  'else if (v instanceof Number) { n.put(e.getKey(), v); } } }',
  'ctx._source.strings = s; ctx._source.numbers = n; ctx._source.booleans = b;',
];

export const SETTINGS: estypes.IndicesIndexSettings = {
  // One shard: BM25 statistics are exact (as in the embedded index, though those are per organization).
  number_of_shards: 1,
  // `default`: every text field gets it without naming a similarity (see the header).
  similarity: { default: { type: 'BM25', k1: BM25_K1, b: BM25_B } },
  analysis: {
    tokenizer: { cairn_words: { type: 'pattern', pattern: WORD_PATTERN, group: 0 } },
    filter: {
      cairn_possessive: { type: 'stemmer', language: 'possessive_english' },
      cairn_stop: { type: 'stop', stopwords: '_english_' },
    },
    analyzer: {
      cairn_english: {
        type: 'custom',
        tokenizer: 'cairn_words',
        filter: ['cairn_possessive', 'lowercase', 'asciifolding', 'cairn_stop', 'porter_stem'],
      },
    },
  },
};

/**
 * The scoring query: BM25F over title and body with the title weighted `titleBoost`. Lucene's combined field
 * query takes only weights ≥ 1, so a boost below 1 weighs the body 1/boost instead (the same ratio; scores
 * differ slightly from the embedded index's there), and a boost of 0 scores the body alone (a title match
 * still matches, scoring 0). `text` is the query's words, which this index analyzes as it analyzes documents.
 */
export function textQuery(text: string, titleBoost: number): Query {
  if (titleBoost >= 1) {
    return { combined_fields: { query: text, fields: [`title^${titleBoost}`, 'body'], operator: 'or' } };
  }
  if (titleBoost > 0) {
    return { combined_fields: { query: text, fields: ['title', `body^${1 / titleBoost}`], operator: 'or' } };
  }
  return {
    bool: {
      should: [
        { combined_fields: { query: text, fields: ['body'], operator: 'or' } },
        { match: { title: { query: text, boost: 0 } } },
      ],
      minimum_should_match: 1,
    },
  };
}
