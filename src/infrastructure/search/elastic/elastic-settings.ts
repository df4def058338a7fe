/**
 * The Elasticsearch index layout, kept equivalent to the embedded index (src/infrastructure/search/sqlite):
 *
 * - Analysis `cairn_english`, the twin of analyzer.ts: the same words (a pattern tokenizer with the scanner's
 *   word pattern), English possessive, lower case, ASCII folding (the embedded index drops combining marks; the
 *   two differ only on letters without a decomposition, such as ø or ß), Lucene's English stop words, Porter.
 * - Similarity `cairn_bm25`: BM25 with the embedded index's k1 and b (bm25.ts).
 * - Search (see textQuery()): `combined_fields` over title and body, which is BM25F (Lucene's
 *   CombinedFieldQuery), like the embedded index's scoring of title and body as one field with the title weighted.
 *
 * LAYOUT is part of the physical index name (`<name>-v<LAYOUT>`): a new layout is a new index, filled from the
 * previous one by a server-side reindex in init() (see ElasticSearchIndex.init()).
 */
import type { estypes } from '@elastic/elasticsearch';
import { WORD_PATTERN } from '../sqlite/analyzer';
import { BM25_B, BM25_K1 } from '../sqlite/bm25';

export const LAYOUT = 2;

type Query = estypes.QueryDslQueryContainer;

function fieldTemplate(
  name: string,
  jsonType: string,
  mapping: estypes.MappingProperty,
): Partial<Record<string, estypes.MappingDynamicTemplate>> {
  return { [name]: { path_match: 'fields.*', match_mapping_type: jsonType, mapping } };
}

const TEXT: estypes.MappingProperty = { type: 'text', analyzer: 'cairn_english', similarity: 'cairn_bm25' };

export const MAPPINGS: estypes.MappingTypeMapping = {
  dynamic: 'strict',
  date_detection: false,
  numeric_detection: false,
  _meta: { cairn_search_layout: LAYOUT },
  dynamic_templates: [
    fieldTemplate('field_strings', 'string', { type: 'keyword', ignore_above: 8191 }),
    // Every number is a JavaScript double: a field first seen as 1 must still hold 2.5 (no long truncation).
    fieldTemplate('field_longs', 'long', { type: 'double', ignore_malformed: true }),
    fieldTemplate('field_doubles', 'double', { type: 'double', ignore_malformed: true }),
    fieldTemplate('field_booleans', 'boolean', { type: 'boolean' }),
  ],
  properties: {
    id: { type: 'keyword' },
    organization_id: { type: 'keyword' },
    title: TEXT,
    body: TEXT,
    fields: { type: 'object', dynamic: true },
    version: { type: 'long' },
    deleted: { type: 'boolean' },
  },
};

export const SETTINGS: estypes.IndicesIndexSettings = {
  // One shard: BM25 statistics are exact (as in the embedded index, though those are per organization).
  number_of_shards: 1,
  similarity: { cairn_bm25: { type: 'BM25', k1: BM25_K1, b: BM25_B } },
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
