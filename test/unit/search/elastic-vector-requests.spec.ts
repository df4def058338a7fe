/**
 * What the Elasticsearch vector search sends (no Elasticsearch server runs here): the dense_vector mapping, the
 * filtered kNN request, and the writes of the change feed, recorded by a local HTTP server that the real client
 * talks to. The kNN filter is evaluated against documents by a small interpreter of the query clauses it uses
 * (term, range, exists, bool), as Elasticsearch documents them.
 */
import { join } from 'node:path';
import { SqliteReadStore } from '../../../src/infrastructure/read-store/sqlite/sqlite-read-store';
import {
  ElasticVectorIndex,
  VECTOR_INDEX,
  vectorFilter,
  type ElasticVectorScope,
} from '../../../src/infrastructure/search/elastic/elastic-vector-index';
import { openSqlite } from '../../../src/infrastructure/sqlite/sqlite-connection';
import {
  MEMORY_VECTORS,
  MEMORY_VECTORS_PROJECTION,
  MEMORY_VECTORS_VERSION,
  encodeVector,
} from '../../../src/projections/memory-vectors.projection';
import { ElasticChunkVectors } from '../../../src/queries/memory/elastic-chunk-vectors';
import { ElasticsearchRecorder } from '../../support/elasticsearch-recorder';
import { makeTempDir } from '../../support/temp-dir';

type Json = Record<string, unknown>;

/** Evaluates the query clauses the kNN filter uses against a stored document (_source). */
function matches(query: Json, doc: Json): boolean {
  const [[kind, body]] = Object.entries(query) as Array<[string, Json]>;
  if (kind === 'term') {
    const [[field, value]] = Object.entries(body);
    const wanted = typeof value === 'object' && value !== null ? (value as Json).value : value;
    return doc[field] === wanted;
  }
  if (kind === 'exists') return doc[body.field as string] !== undefined && doc[body.field as string] !== null;
  if (kind === 'range') {
    const [[field, bounds]] = Object.entries(body) as Array<[string, Json]>;
    const value = doc[field];
    if (typeof value !== 'number') return false;
    return (
      (bounds.gt === undefined || value > (bounds.gt as number)) &&
      (bounds.gte === undefined || value >= (bounds.gte as number)) &&
      (bounds.lt === undefined || value < (bounds.lt as number)) &&
      (bounds.lte === undefined || value <= (bounds.lte as number))
    );
  }
  if (kind === 'bool') {
    const all = (clauses: unknown) => ((clauses as Json[] | undefined) ?? []).every((c) => matches(c, doc));
    const should = (body.should as Json[] | undefined) ?? [];
    const minimum = (body.minimum_should_match as number | undefined) ?? (should.length > 0 ? 1 : 0);
    return (
      all(body.filter) &&
      all(body.must) &&
      ((body.must_not as Json[] | undefined) ?? []).every((c) => !matches(c, doc)) &&
      should.filter((c) => matches(c, doc)).length >= minimum
    );
  }
  throw new Error(`clause ${kind} not interpreted`);
}

const source = (over: Json): Json => ({
  organization_id: '1',
  visibility: 'organization_internal',
  owner_client_key: null,
  expires_at_ms: null,
  deleted: false,
  ...over,
});

describe('Elasticsearch vector search: the requests it sends', () => {
  const recorder = new ElasticsearchRecorder();
  let url: string;
  let temp: ReturnType<typeof makeTempDir>;
  let readStore: SqliteReadStore;
  let position = 0;

  const write = async (
    rows: Array<{ chunk: number; vector: number[] | null; visibility?: string; owner?: string }>,
  ) => {
    const next = position + 1;
    await readStore.commit(
      MEMORY_VECTORS_PROJECTION,
      position,
      { position: next, version: MEMORY_VECTORS_VERSION },
      rows.map((row) => ({
        op: 'put' as const,
        collection: MEMORY_VECTORS,
        doc: {
          id: `chunk-${row.chunk}`,
          organization_id: 1,
          memory_item_id: row.chunk * 10,
          memory_chunk_id: row.chunk,
          visibility: row.visibility ?? 'organization_internal',
          owner_client_key: row.owner ?? null,
          expires_at_ms: null,
          position: next,
          vector: row.vector === null ? null : encodeVector(row.vector),
        },
      })),
    );
    position = next;
  };

  beforeAll(async () => {
    url = await recorder.start();
    temp = makeTempDir();
    readStore = new SqliteReadStore(openSqlite({ path: join(temp.dir, 'cairn.sqlite') }));
    await readStore.ensureCollection(MEMORY_VECTORS, ['position']);
  });
  afterAll(async () => {
    await readStore.close();
    temp.cleanup();
    await recorder.stop();
  });

  it('maps the vector as an HNSW dense_vector (cosine, int8) beside keyword filter fields', async () => {
    const index = new ElasticVectorIndex(url, 'vectors-mapping');
    await index.init();
    await index.close();
    const [created] = recorder.requests.filter((r) => r.method === 'PUT' && r.path === '/vectors-mapping');
    const properties = (created.body as { mappings: { properties: Record<string, Json> } }).mappings
      .properties;
    expect(properties.vector).toEqual({
      type: 'dense_vector',
      index: true,
      similarity: 'cosine',
      index_options: { type: 'int8_hnsw', m: 16, ef_construction: 100 },
    });
    for (const field of ['organization_id', 'visibility', 'owner_client_key'])
      expect(properties[field]).toEqual({ type: 'keyword' });
    expect(properties.expires_at_ms).toEqual({ type: 'long' });
  });

  it('sends one kNN search whose filter lets through exactly what the scope may see', async () => {
    const index = new ElasticVectorIndex(url, 'vectors-knn');
    const scope: ElasticVectorScope = { organizationId: 1, clientKey: 'a', visibility: null, nowMs: 5000 };
    await index.knn(scope, Float32Array.from([0.5, 0.25]), 100);
    await index.close();
    const [search] = recorder.find('/vectors-knn/_search');
    const body = search.body as { knn: Json; size: number; query?: unknown };
    expect(body.query).toBeUndefined();
    expect(body.size).toBe(100);
    expect(body.knn).toMatchObject({
      field: 'vector',
      query_vector: [0.5, 0.25],
      k: 100,
      num_candidates: 1000,
    });
    const filter = { bool: { filter: body.knn.filter as Json[] } };
    expect(filter).toEqual({ bool: { filter: vectorFilter(scope) } });
    const sees = (doc: Json, over: Partial<ElasticVectorScope> = {}) =>
      matches({ bool: { filter: vectorFilter({ ...scope, ...over }) } }, source(doc));
    expect(sees({})).toBe(true);
    expect(sees({ visibility: 'tool_private', owner_client_key: 'a' })).toBe(true);
    // Another client's tool_private chunk, under every visibility the search may ask for.
    for (const visibility of [null, 'tool_private', 'organization_internal'] as const)
      expect(sees({ visibility: 'tool_private', owner_client_key: 'b' }, { visibility })).toBe(false);
    expect(
      sees({ visibility: 'tool_private', owner_client_key: 'a' }, { visibility: 'organization_internal' }),
    ).toBe(false);
    expect(sees({}, { visibility: 'tool_private' })).toBe(false);
    expect(sees({ organization_id: '2' })).toBe(false);
    expect(sees({ deleted: true })).toBe(false);
    expect(sees({ expires_at_ms: 5000 })).toBe(false);
    expect(sees({ expires_at_ms: 5001 })).toBe(true);
  });

  it('copies only the rows written since the last search, with external versions, then refreshes once', async () => {
    const index = new ElasticVectorIndex(url, 'vectors-follow');
    const vectors = new ElasticChunkVectors(url, readStore, index);
    const scope = { organizationId: 1, clientKey: 'a', visibility: null, nowMs: 0 };
    await write([
      { chunk: 1, vector: [1, 0] },
      { chunk: 2, vector: [0, 1], visibility: 'tool_private', owner: 'b' },
    ]);
    await vectors.search(scope, Float32Array.from([1, 0]), 10);
    await write([{ chunk: 3, vector: [1, 1] }]);
    await write([{ chunk: 1, vector: null }]);
    await vectors.search(scope, Float32Array.from([1, 0]), 10);
    await vectors.close();

    const bulks = recorder.find('/_bulk').map((r) => r.body as Json[]);
    const written = bulks.map((lines) =>
      lines.filter((_, n) => n % 2 === 0).map((action) => (action.index as Json)._id),
    );
    // The second search copied the two rows written since the first, not the organization again.
    expect(written).toEqual([
      ['chunk-1', 'chunk-2'],
      ['chunk-3', 'chunk-1'],
    ]);
    const [, second] = bulks;
    expect(second[0]).toEqual({
      index: { _index: 'vectors-follow', _id: 'chunk-3', version: 2, version_type: 'external_gte' },
    });
    expect(second[1]).toMatchObject({
      vector: [1, 1],
      deleted: false,
      organization_id: '1',
      memory_item_id: 30,
    });
    expect(second[3]).toMatchObject({ deleted: true, memory_chunk_id: 1 });
    expect(second[3]).not.toHaveProperty('vector');
    expect(recorder.find('/vectors-follow/_refresh')).toHaveLength(2);
    expect(
      recorder.find('/vectors-follow/_search').filter((r) => (r.body as Json).knn !== undefined),
    ).toHaveLength(2);
  });

  it('defaults to the index name the production adapter uses', () => {
    expect(new ElasticVectorIndex(url).index).toBe(VECTOR_INDEX);
  });
});
