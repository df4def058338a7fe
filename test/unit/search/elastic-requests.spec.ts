/**
 * What the Elasticsearch adapter sends, recorded by a local HTTP server that the real client talks to, checked
 * against Elasticsearch's documented rules (elastic-rules.ts) and the compose file's server version.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ElasticSearchIndex } from '../../../src/infrastructure/search/elastic/elastic-search-index';
import type { SearchDocument, SearchQuery } from '../../../src/infrastructure/search/search-index.port';
import { ElasticsearchRecorder, type RecordedRequest } from '../../support/elasticsearch-recorder';
import { combinedFields, DynamicMapping, queryTypeViolations } from './elastic-rules';

type JsonObject = Parameters<DynamicMapping['index']>[0];

const doc = (id: string, fields: SearchDocument['fields']): SearchDocument => ({
  id,
  organization_id: 'org-1',
  title: 'Refunds',
  body: 'Refunds take five days.',
  fields,
  version: 1,
});

/** Documents whose fields change JSON type from one document to the next, as read models may. */
const DOCUMENTS = [
  doc('d1', { mixed: '1', priority: 2, pinned: true, audience: 'customer_safe' }),
  doc('d2', { mixed: 1, priority: 2.5, pinned: 'yes', audience: 7 }),
  doc('d3', { mixed: true, priority: 'high', pinned: false, audience: null }),
  doc('d5', { memory_item_id: 41 }),
];

/** Filters of every type on every field, wrong-typed ones included. */
const QUERIES: SearchQuery[] = [
  { organization_id: 'org-1', text: 'refunds', filters: { priority: '2', audience: 1, pinned: 'true' } },
  {
    organization_id: 'org-1',
    text: 'refunds',
    filters: { mixed: ['1', 1, true, null], priority: { gte: 1 } },
  },
  { organization_id: 'org-1', text: 'refunds', any_of: [{ audience: 'customer_safe' }, { pinned: 1 }] },
  {
    organization_id: 'org-1',
    text: 'refunds',
    filters: { audience: { gt: 0, or_null: true } },
    title_boost: 0.5,
  },
  { organization_id: 'org-1', text: 'refunds', title_boost: 0 },
  {
    organization_id: 'org-1',
    text: 'refunds',
    filters: { audience: 'customer_safe' },
    collapse: { field: 'memory_item_id', max_members: 7 },
  },
  {
    organization_id: 'org-1',
    text: 'refunds',
    collapse: { field: 'memory_item_id', max_members: 3, values: [41, 7, 41] },
  },
  {
    organization_id: 'org-1',
    text: 'refunds',
    collapse: { field: 'memory_item_id', max_members: 3, excluded_values: new Set([9, 3]) },
  },
];

function composeElasticsearchMajor(): number {
  const compose = readFileSync(join(__dirname, '../../../docker-compose.yml'), 'utf8');
  const match = /image:\s*docker\.elastic\.co\/elasticsearch\/elasticsearch:(\d+)\./.exec(compose);
  if (match === null) throw new Error('docker-compose.yml runs no Elasticsearch image');
  return Number(match[1]);
}

describe('Elasticsearch adapter: the requests it sends', () => {
  const recorder = new ElasticsearchRecorder();
  let index: ElasticSearchIndex;

  beforeAll(async () => {
    const url = await recorder.start();
    index = new ElasticSearchIndex(url, { index: 'cairn-test' });
    await index.init();
    await index.upsert(DOCUMENTS);
    await index.delete([{ id: 'd4', version: 3 }]);
    for (const query of QUERIES) await index.search(query);
  });

  afterAll(async () => {
    await index.close();
    await recorder.stop();
  });

  const created = (): RecordedRequest => {
    const [request] = recorder.requests.filter((r) => r.method === 'PUT' && r.path === '/cairn-test-v4');
    if (request === undefined) throw new Error('init() created no index');
    return request;
  };
  const mappings = (): JsonObject => (created().body as { mappings: JsonObject }).mappings;
  const bulkDocuments = (): JsonObject[] =>
    recorder.find('/_bulk').flatMap((r) => (r.body as JsonObject[]).filter((_, n) => n % 2 === 1));

  it("asks for the REST compatibility of the compose file's Elasticsearch major (a 9 client refuses an 8 server)", () => {
    const major = composeElasticsearchMajor();
    expect(recorder.requests.length).toBeGreaterThan(0);
    for (const request of recorder.requests) {
      expect(request.headers.accept).toContain(`compatible-with=${major}`);
    }
  });

  it('sets BM25 index-wide, never per field: combined_fields refuses per-field similarities', () => {
    const body = created().body as { settings: JsonObject; mappings: JsonObject };
    const properties = body.mappings.properties as Record<string, JsonObject>;
    const searched = recorder.find('/_search').flatMap((r) => combinedFields((r.body as JsonObject).query));
    expect(new Set(searched)).toEqual(new Set(['title', 'body']));
    for (const field of searched) expect(properties[field]).not.toHaveProperty('similarity');
    expect(body.settings.similarity).toEqual({ default: { type: 'BM25', k1: expect.any(Number), b: 0.4 } });
  });

  it('indexes every filter value under a field of its own JSON type: no write refused, coerced or dropped', () => {
    const mapping = new DynamicMapping(mappings());
    for (const document of bulkDocuments()) mapping.index(document);
    expect(mapping.violations).toEqual([]);
    // Returned as written.
    expect(bulkDocuments()[1].fields).toEqual(DOCUMENTS[1].fields);
  });

  it('queries each field with values of its mapped type only: a wrong-typed filter is no 400', () => {
    const mapping = new DynamicMapping(mappings());
    for (const document of bulkDocuments()) mapping.index(document);
    const searches = recorder.find('/_search');
    expect(searches).toHaveLength(QUERIES.length);
    for (const search of searches)
      expect(queryTypeViolations((search.body as JsonObject).query, mapping)).toEqual([]);
  });

  it('writes without waiting for a refresh; refresh() is one refresh of the index', async () => {
    const bulks = recorder.find('/_bulk');
    expect(bulks.length).toBeGreaterThan(0);
    for (const bulk of bulks) expect(bulk.query.get('refresh')).toBeNull();
    const before = recorder.find('/_refresh').length;
    await index.refresh();
    const refreshes = recorder.find('/_refresh');
    expect(refreshes).toHaveLength(before + 1);
    expect(refreshes[refreshes.length - 1].path).toBe('/cairn-test-v4/_refresh');
  });

  it('writes with external versions so replays never overwrite newer documents', () => {
    const actions = recorder
      .find('/_bulk')
      .flatMap((r) => (r.body as JsonObject[]).filter((_, n) => n % 2 === 0));
    expect(actions.map((action) => action.index)).toEqual([
      { _index: 'cairn-test-v4', _id: 'd1', version: 1, version_type: 'external_gte' },
      { _index: 'cairn-test-v4', _id: 'd2', version: 1, version_type: 'external_gte' },
      { _index: 'cairn-test-v4', _id: 'd3', version: 1, version_type: 'external_gte' },
      { _index: 'cairn-test-v4', _id: 'd5', version: 1, version_type: 'external_gte' },
      { _index: 'cairn-test-v4', _id: 'd4', version: 3, version_type: 'external_gte' },
    ]);
  });

  it('collapses on a keyword that every document has: its item id, or its own id when it has none', () => {
    const properties = mappings().properties as Record<string, JsonObject>;
    expect(properties.collapse_key).toEqual({ type: 'keyword' });
    expect(bulkDocuments().map((document) => [document.id, document.collapse_key])).toEqual([
      ['d1', 'doc:d1'],
      ['d2', 'doc:d2'],
      ['d3', 'doc:d3'],
      ['d5', '41'],
      ['d4', 'doc:d4'],
    ]);
    const searches = recorder.find('/_search').map((r) => r.body as JsonObject);
    const collapsing = searches.filter((body) => body.collapse !== undefined);
    expect(collapsing).toHaveLength(3);
    expect(collapsing[0].collapse).toEqual({
      field: 'collapse_key',
      inner_hits: {
        name: 'members',
        size: 7,
        _source: ['id', 'fields'],
        sort: [{ _score: { order: 'desc' } }, { id: { order: 'asc' } }],
        track_scores: true,
      },
    });
  });

  it('restricts a search to collapse values by their keys (members of chosen items)', () => {
    const searches = recorder.find('/_search').map((r) => r.body as JsonObject);
    const restricted = searches[searches.length - 2] as {
      query: { bool: { filter: JsonObject[] } };
      collapse: { inner_hits: { size: number } };
    };
    expect(restricted.query.bool.filter).toContainEqual({ terms: { collapse_key: ['41', '7'] } });
    expect(restricted.collapse.inner_hits.size).toBe(3);
    // No other search is restricted (filtered on collapse keys).
    const others = searches.filter((body) => body !== restricted) as Array<{
      query: { bool: { filter: JsonObject[] } };
    }>;
    expect(others.filter((body) => JSON.stringify(body.query.bool.filter).includes('collapse_key'))).toEqual(
      [],
    );
  });

  it('leaves excluded collapse values out by their keys (must_not), and nothing out otherwise', () => {
    const searches = recorder.find('/_search').map((r) => r.body as { query: { bool: JsonObject } });
    const excluding = searches[searches.length - 1];
    expect(excluding.query.bool.must_not).toEqual([{ terms: { collapse_key: ['9', '3'] } }]);
    expect(JSON.stringify(excluding.query.bool.filter)).not.toContain('collapse_key');
    expect(searches.slice(0, -1).filter((body) => body.query.bool.must_not !== undefined)).toEqual([]);
  });
});
