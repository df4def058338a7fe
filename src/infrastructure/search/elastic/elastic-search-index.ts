/**
 * The production SearchIndex: Elasticsearch (the only file importing @elastic/elasticsearch).
 *
 * - One index (`<name>-v<layout>`, name default `cairn-memory-chunks`, one shard so BM25 statistics are exact)
 *   with an explicit mapping (elastic-settings.ts): title/body `text` with the `cairn_english` analyzer under the
 *   index's default BM25 similarity (the embedded index's analysis and k1/b), ids and organization `keyword`, and
 *   each filter field indexed under the path of its JSON type (strings → keyword, numbers → double as in
 *   JavaScript, booleans → boolean; `fields` itself is kept in _source only). An index template with the same
 *   mapping guards against a concurrent writer auto-creating it.
 * - A new layout is a new index: init() creates it and copies the previous layout's index into it (server-side
 *   reindex keeping the external versions, so writes that land meanwhile are never overwritten by older
 *   copies; a painless script adds the typed copies and the collapse key), then deletes the old one.
 * - Writes: bulk, external versioning (`external_gte`: version = the document version, an equal version
 *   re-applies), no refresh per bulk; refresh() makes them visible once the projection has caught up, so a
 *   search right after a write (read-your-writes) sees it. A version conflict (409)
 *   means a newer write is already there: success. A delete is a versioned tombstone document (deleted: true),
 *   not a real delete, so a late older upsert is still refused after ES would have forgotten a real delete's
 *   version (`index.gc_deletes`, 60 s).
 * - Search: bool with `filter` (organization, live documents, field filters, any_of) and `must` a
 *   combined_fields (BM25F) query of the query's words over title^boost and body (operator OR: never
 *   query_string syntax), see textQuery(). A collapsed search (SearchQuery.collapse) collapses on `collapse_key`
 *   (a keyword: the document's value of the collapse field, or its own id when it has none, so documents without
 *   one are never collapsed together) with the value's best matches as inner hits (`members`).
 */
import { Client, errors, estypes } from '@elastic/elasticsearch';
import {
  SEARCH_COLLAPSE_FIELD,
  type SearchDocument,
  type SearchHit,
  type SearchIndex,
  type SearchQuery,
  type SearchWrite,
} from '../search-index.port';
import {
  collapseValue,
  type FieldCondition,
  normalizeQuery,
  validateDeletes,
  validateDocuments,
} from '../sqlite/search-input';
import { toHit } from './elastic-hits';
import {
  collapseClause,
  collapseKey,
  fromLayout3Script,
  LAYOUT,
  MAPPINGS,
  SETTINGS,
  TYPED_PATHS,
  type TypedFields,
  textQuery,
  typedFields,
} from './elastic-settings';

const DEFAULT_INDEX = 'cairn-memory-chunks';
const BULK_BATCH = 1_000;
const DUMP_PAGE = 1_000;
const PIT_KEEP_ALIVE = '2m';

interface StoredDocument extends SearchDocument, TypedFields {
  collapse_key: string;
  deleted: boolean;
}

type Query = estypes.QueryDslQueryContainer;

const LIVE: Query = { term: { deleted: false } };

function statusOf(error: unknown): number | undefined {
  return error instanceof errors.ResponseError ? error.statusCode : undefined;
}

function isAlreadyExists(error: unknown): boolean {
  return (
    error instanceof errors.ResponseError &&
    JSON.stringify(error.body ?? '').includes('resource_already_exists')
  );
}

function typedPath(type: keyof typeof TYPED_PATHS, field: string): string {
  return `${TYPED_PATHS[type]}.${field}`;
}

/** Null or missing: no value of any type (a null is never indexed, see typedFields()). */
function fieldIsNull(field: string): Query {
  return {
    bool: {
      must_not: Object.values(TYPED_PATHS).map((path) => ({ exists: { field: `${path}.${field}` } })),
    },
  };
}

function anyOf(queries: Query[]): Query {
  if (queries.length === 0) return { match_none: {} };
  return queries.length === 1 ? queries[0] : { bool: { should: queries, minimum_should_match: 1 } };
}

function termsQuery(path: string, values: Array<string | number | boolean>): Query | undefined {
  if (values.length === 0) return undefined;
  return values.length === 1 ? { term: { [path]: { value: values[0] } } } : { terms: { [path]: values } };
}

/** Each value queries the copy of its own JSON type only: a string never meets a numeric field (no 400). */
function conditionQuery(condition: FieldCondition): Query {
  const { field } = condition;
  if (condition.kind === 'range') {
    const bounds: estypes.QueryDslNumberRangeQuery = {};
    if (condition.gt !== undefined) bounds.gt = condition.gt;
    if (condition.gte !== undefined) bounds.gte = condition.gte;
    if (condition.lt !== undefined) bounds.lt = condition.lt;
    if (condition.lte !== undefined) bounds.lte = condition.lte;
    const range: Query = { range: { [typedPath('number', field)]: bounds } };
    return condition.orNull ? anyOf([range, fieldIsNull(field)]) : range;
  }
  const byType = {
    string: condition.values.filter((value) => typeof value === 'string'),
    number: condition.values.filter((value) => typeof value === 'number'),
    boolean: condition.values.filter((value) => typeof value === 'boolean'),
  };
  const clauses: Query[] = [];
  for (const type of ['string', 'number', 'boolean'] as const) {
    const clause = termsQuery(typedPath(type, field), byType[type]);
    if (clause !== undefined) clauses.push(clause);
  }
  if (condition.values.includes(null)) clauses.push(fieldIsNull(field));
  return anyOf(clauses);
}

function stored(document: SearchDocument, deleted: boolean): StoredDocument {
  const key = collapseKey(document.id, collapseValue(document.fields, SEARCH_COLLAPSE_FIELD));
  return { ...document, ...typedFields(document.fields), collapse_key: key, deleted };
}

function toDocument(source: StoredDocument): SearchDocument {
  const { id, organization_id, title, body, fields, version } = source;
  return { id, organization_id, title, body, fields, version };
}

/** A client of the cluster at `url` (the vector index, elastic-vector-index.ts, uses it: this file imports the client). */
export function createElasticClient(url: string): Client {
  return new Client({ node: url });
}

export class ElasticSearchIndex implements SearchIndex {
  private readonly client: Client;
  private readonly index: string;
  /** The index of the previous layout, migrated by init(). */
  private readonly previous: string;

  constructor(url: string, options?: { index?: string }) {
    this.client = createElasticClient(url);
    const name = options?.index ?? DEFAULT_INDEX;
    this.index = `${name}-v${LAYOUT}`;
    this.previous = `${name}-v${LAYOUT - 1}`;
  }

  /** Creates the index template and the index when missing. Safe to call from several processes. */
  async init(): Promise<void> {
    try {
      await this.client.indices.putIndexTemplate({
        name: `${this.index}-template`,
        index_patterns: [this.index],
        priority: 500,
        template: { settings: SETTINGS, mappings: MAPPINGS },
      });
    } catch (error) {
      // Without the cluster privilege to manage templates, the explicit index creation below still applies.
      if (statusOf(error) !== 403) throw error;
    }
    if (!(await this.client.indices.exists({ index: this.index }))) {
      try {
        await this.client.indices.create({ index: this.index, settings: SETTINGS, mappings: MAPPINGS });
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
      }
    }
    await this.migratePrevious();
  }

  /**
   * Copies the previous layout's index into this one, then deletes it. Idempotent and safe to run from several
   * processes at once: external versions make a copy older than (or as old as) a stored document a conflict,
   * and conflicts are skipped.
   */
  private async migratePrevious(): Promise<void> {
    if (!(await this.client.indices.exists({ index: this.previous }))) return;
    await this.client.reindex({
      source: { index: this.previous },
      dest: { index: this.index, version_type: 'external' },
      script: { lang: 'painless', source: fromLayout3Script(SEARCH_COLLAPSE_FIELD) },
      conflicts: 'proceed',
      refresh: true,
      wait_for_completion: true,
    });
    await this.client.indices.delete({ index: this.previous, ignore_unavailable: true });
    await this.client.indices.deleteIndexTemplate({ name: `${this.previous}-template` }, { ignore: [404] });
  }

  /** Each document's last write only: with external versions, the earlier ones would change nothing left. */
  async write(writes: SearchWrite[]): Promise<void> {
    const last = new Map<string, SearchWrite>();
    for (const write of writes) {
      const id = write.kind === 'upsert' ? write.document.id : write.id;
      last.delete(id);
      last.set(id, write);
    }
    const upserts: SearchDocument[] = [];
    const deletes: Array<{ id: string; version: number }> = [];
    for (const write of last.values()) {
      if (write.kind === 'upsert') upserts.push(write.document);
      else deletes.push({ id: write.id, version: write.version });
    }
    if (upserts.length > 0) await this.upsert(upserts);
    if (deletes.length > 0) await this.delete(deletes);
  }

  async upsert(documents: SearchDocument[]): Promise<void> {
    validateDocuments(documents);
    await this.bulkWrite(documents.map((document) => stored(document, false)));
  }

  async delete(items: Array<{ id: string; version: number }>): Promise<void> {
    validateDeletes(items);
    await this.bulkWrite(
      items.map(({ id, version }) =>
        stored({ id, organization_id: '', title: '', body: '', fields: {}, version }, true),
      ),
    );
  }

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const q = normalizeQuery(query, SEARCH_COLLAPSE_FIELD);
    if (q.terms.length === 0) return [];
    const filter: Query[] = [
      { term: { organization_id: q.organizationId } },
      LIVE,
      ...q.filters.map(conditionQuery),
    ];
    if (q.anyOf !== undefined) {
      filter.push(
        anyOf(q.anyOf.map((conjunction) => ({ bool: { filter: conjunction.map(conditionQuery) } }))),
      );
    }
    // Restricted to collapse values: their keys (a document without a value has a `doc:` key, never listed).
    if (q.collapse?.values !== undefined)
      filter.push({ terms: { collapse_key: q.collapse.values.map(String) } });
    // Excluded collapse values: their documents are out, as a failing filter would leave them.
    const excluded = q.collapse?.excluded;
    const mustNot: Query[] =
      excluded === undefined ? [] : [{ terms: { collapse_key: [...excluded].map(String) } }];
    const response = await this.client.search<StoredDocument>({
      index: this.index,
      size: q.limit,
      track_total_hits: false,
      _source: ['id', 'title', 'fields'],
      query: {
        bool: {
          filter,
          ...(mustNot.length === 0 ? {} : { must_not: mustNot }),
          // The words the shared analysis kept, not the raw text: plain words only, never syntax.
          must: [textQuery(q.words.join(' '), q.titleBoost)],
        },
      },
      sort: [{ _score: { order: 'desc' } }, { id: { order: 'asc' } }],
      ...(q.collapse === undefined ? {} : { collapse: collapseClause(q.collapse.maxMembers) }),
      highlight: {
        pre_tags: ['«'],
        post_tags: ['»'],
        encoder: 'default',
        fields: { body: { number_of_fragments: 3, fragment_size: 160, no_match_size: 0 } },
      },
    });
    return response.hits.hits.flatMap((hit) => toHit(hit, q.collapse !== undefined));
  }

  async get(id: string): Promise<SearchDocument | null> {
    const response = await this.client.get<StoredDocument>({ index: this.index, id }, { ignore: [404] });
    const source = response.found ? response._source : undefined;
    return source === undefined || source.deleted ? null : toDocument(source);
  }

  async *dump(): AsyncIterable<SearchDocument> {
    // A point in time gives one consistent view across pages; search_after pages it by id.
    const pit = await this.client.openPointInTime({ index: this.index, keep_alive: PIT_KEEP_ALIVE });
    let pitId = pit.id;
    try {
      let after: estypes.SortResults | undefined;
      for (;;) {
        const page = await this.client.search<StoredDocument>({
          pit: { id: pitId, keep_alive: PIT_KEEP_ALIVE },
          size: DUMP_PAGE,
          track_total_hits: false,
          query: { bool: { filter: [LIVE] } },
          sort: [{ id: { order: 'asc' } }],
          ...(after === undefined ? {} : { search_after: after }),
        });
        pitId = page.pit_id ?? pitId;
        const hits = page.hits.hits;
        for (const hit of hits) if (hit._source !== undefined) yield toDocument(hit._source);
        if (hits.length < DUMP_PAGE) return;
        after = hits[hits.length - 1].sort;
      }
    } finally {
      await this.client.closePointInTime({ id: pitId }).catch(() => undefined);
    }
  }

  async count(organizationId?: string): Promise<number> {
    const filter: Query[] = [LIVE];
    if (organizationId !== undefined) filter.push({ term: { organization_id: organizationId } });
    const response = await this.client.count({ index: this.index, query: { bool: { filter } } });
    return response.count;
  }

  /** Deletes and recreates the index: a delete-by-query would leave ES remembering versions for a while. */
  async reset(): Promise<void> {
    await this.client.indices.delete({ index: this.index, ignore_unavailable: true });
    await this.init();
  }

  /** Makes every write so far visible to search (one refresh of this index, not one per bulk). */
  async refresh(): Promise<void> {
    await this.client.indices.refresh({ index: this.index });
  }

  async ping(): Promise<void> {
    if (!(await this.client.ping())) throw new Error(`Elasticsearch did not answer a ping`);
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Removes the index and its template (tests, teardown). Not part of the port. */
  async drop(): Promise<void> {
    await this.client.indices.delete({ index: this.index, ignore_unavailable: true });
    await this.client.indices.deleteIndexTemplate({ name: `${this.index}-template` }, { ignore: [404] });
  }

  private async bulkWrite(documents: StoredDocument[]): Promise<void> {
    for (let start = 0; start < documents.length; start += BULK_BATCH) {
      const batch = documents.slice(start, start + BULK_BATCH);
      const operations = batch.flatMap((document) => [
        {
          index: {
            _index: this.index,
            _id: document.id,
            version: document.version,
            version_type: 'external_gte' as const,
          },
        },
        document,
      ]);
      // No refresh here: a rebuild writes thousands of batches, and `wait_for` costs up to a refresh interval
      // (1 s) each. The runner calls refresh() once it has caught up (read-your-writes).
      const response = await this.client.bulk<StoredDocument>({ operations });
      if (!response.errors) continue;
      const failures = response.items
        .flatMap((item) => Object.values(item))
        .filter((result) => result.error !== undefined && result.status !== 409);
      if (failures.length > 0) {
        const first = failures[0];
        throw new Error(
          `Elasticsearch rejected ${failures.length} of ${batch.length} writes; first: ${first._id ?? '?'} ` +
            `${first.status} ${first.error?.type ?? ''} ${first.error?.reason ?? ''}`,
        );
      }
    }
  }
}
