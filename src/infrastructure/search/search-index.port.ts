/**
 * The SearchIndex port: BM25 full-text search over small documents (memory chunks), always scoped to one
 * organization, with exact-match filters, ranges and highlights. Writes carry a version (the global position of
 * the event that produced them) and a write older than what is stored is ignored, so replays are harmless.
 */

export type FilterValue = string | number | boolean | null;

export interface SearchDocument {
  id: string;
  organization_id: string;
  title: string;
  body: string;
  /** Keyword / numeric fields used for filtering and returned with hits. Keys: [a-z0-9_]+. */
  fields: Record<string, FilterValue>;
  /** Global position of the event that produced this state. */
  version: number;
}

export type SearchFilter =
  | FilterValue
  /** Any of these values. */
  | FilterValue[]
  /** Numeric range; `or_null: true` also matches documents whose field is null. */
  | { gt?: number; gte?: number; lt?: number; lte?: number; or_null?: boolean };

export interface SearchQuery {
  organization_id: string;
  /** Plain user text; never interpreted as query syntax by any adapter. */
  text: string;
  /** Conjunction over fields. */
  filters?: Record<string, SearchFilter>;
  /** Documents that match any of these alternatives (each a conjunction) in addition to `filters`. */
  any_of?: Array<Record<string, SearchFilter>>;
  /** Default 10, at most 1,000. */
  limit?: number;
  /** Weight of title term frequencies against body ones (title and body are scored as one field); default 1. */
  title_boost?: number;
  /**
   * One hit per value of a number field (an item's chunks: `memory_item_id`): its best document that passes the
   * filters, `limit` such hits. Each hit lists in `members` that value's matching documents that pass the filters,
   * best first (the hit's own document first), at most `max_members`. Documents without a non-negative integer
   * value in the field are each their own hit. An index may support only the field it was configured for.
   *
   * `values` (at most 1,000 non-negative integers) restricts the search to those values' documents, as a filter on
   * the field would (members of items already chosen: an embedded index reads and scores only their documents).
   *
   * `excluded_values` (at most MAX_EXCLUDED_VALUES non-negative integers) leaves those values' documents out, as a
   * filter failing on them would: an embedded index skips them while ranking, without reading them (other
   * connectors' private items, which a search's filters would otherwise read and drop after ranking). A set the
   * caller keeps and passes again costs an embedded index no copy; it must not change while a search has it.
   */
  collapse?: {
    field: string;
    max_members: number;
    values?: number[];
    excluded_values?: ReadonlySet<number>;
  };
}

/**
 * The field Cairn's search documents collapse by (a memory item's chunks): the embedded index keeps each
 * document's value of it, so every process opening one file must agree on it (search-schema.ts).
 */
export const SEARCH_COLLAPSE_FIELD = 'memory_item_id';

/**
 * The numeric field an embedded index keeps in memory for every document (a memory chunk's expiry, as epoch ms):
 * a query's `filters` conditions on it are checked while ranking, so documents failing them (expired items) are
 * never scored nor read. Changing it needs a new layout of the embedded index (search-schema.ts).
 */
export const SEARCH_EXPIRY_FIELD = 'expires_at_ms';

/**
 * The most values SearchQuery.collapse.excluded_values holds: Elasticsearch's default `index.max_terms_count` (a
 * `terms` query takes no more).
 */
export const MAX_EXCLUDED_VALUES = 65_536;

/** A matching document of a collapsed hit's value (SearchQuery.collapse). */
export interface SearchMember {
  id: string;
  score: number;
  fields: Record<string, FilterValue>;
}

export interface SearchHit {
  id: string;
  /** Higher is better; only comparable within one result list. */
  score: number;
  fields: Record<string, FilterValue>;
  title: string;
  /** Excerpts of the body around matched terms, matched terms wrapped in «». At most 3. */
  highlights: string[];
  /** With SearchQuery.collapse: the value's matching documents, best first, this hit's own first. */
  members?: SearchMember[];
}

/** One write of an ordered batch (`SearchIndex.write`). */
export type SearchWrite =
  { kind: 'upsert'; document: SearchDocument } | { kind: 'delete'; id: string; version: number };

export interface SearchWriteOptions {
  /**
   * The caller calls refresh() before it needs these writes searchable (the projection runner's full batches of a
   * catch-up or rebuild, while nobody waits for them): an index may make them searchable only then. The embedded
   * index then keeps new documents' postings in memory and stores each partition's postings once (instead of once
   * per batch); Elasticsearch already makes writes visible at its refresh.
   */
  defer_visibility?: boolean;
}

export interface SearchIndex {
  /**
   * Applies upserts and deletes in the order given (the order of the events that made them), with the same
   * version rules as `upsert` and `delete`. The embedded index numbers documents in this order, so replaying the
   * same events writes the same tables however they are cut into batches.
   */
  write(writes: SearchWrite[], options?: SearchWriteOptions): Promise<void>;
  /** Creates or updates documents; a document whose stored version is newer is left alone. */
  upsert(documents: SearchDocument[]): Promise<void>;
  /** Deletes documents; a delete older than the stored version is ignored. Unknown ids are fine. */
  delete(items: Array<{ id: string; version: number }>): Promise<void>;
  search(query: SearchQuery): Promise<SearchHit[]>;
  get(id: string): Promise<SearchDocument | null>;
  /** Every live document, ordered by id (used to prove a rebuild identical). */
  dump(): AsyncIterable<SearchDocument>;
  count(organizationId?: string): Promise<number>;
  /**
   * Makes every write so far visible to search. Writes may become visible later than they resolve (Elasticsearch
   * refreshes about once a second); the projection runner calls this once it has caught up, not per batch.
   */
  refresh(): Promise<void>;
  /** Removes every document (rebuild). */
  reset(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const SEARCH_INDEX = Symbol('SEARCH_INDEX');
