/**
 * Chunk vectors on Elasticsearch: one index (`cairn-memory-vectors-v1`) of `dense_vector` fields (cosine, HNSW
 * with int8 quantization, `int8_hnsw`: m 16, ef_construction 100; the dimension count is set by the first vector)
 * beside each chunk's filter fields, and `knn` searches filtered exactly as the embedded index filters:
 * organization, live (not a tombstone), visibility and owner, and expiry, inside the kNN search (Elasticsearch
 * applies a kNN `filter` during the graph search, so `k` filtered hits come back, not `k` hits filtered after).
 *
 * Writes: bulk, external versioning (`external_gte`, version = the read-model position of the row) like the
 * lexical index, so a replayed or late older write is refused; a removed chunk is a tombstone document
 * (`deleted: true`, no vector), kept so that a late older write stays refused.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import { createElasticClient } from './elastic-search-index';

export interface ElasticVectorRow {
  memory_chunk_id: number;
  memory_item_id: number;
  organization_id: number;
  visibility: string;
  owner_client_key: string | null;
  expires_at_ms: number | null;
  position: number;
  /** null: the chunk was removed. */
  vector: Float32Array | null;
}

export interface ElasticVectorScope {
  organizationId: number;
  clientKey: string;
  visibility: 'tool_private' | 'organization_internal' | null;
  nowMs: number;
}

type Query = estypes.QueryDslQueryContainer;

export const VECTOR_INDEX = 'cairn-memory-vectors-v1';
const BULK_BATCH = 500;
/** Candidates each shard's HNSW search gathers per result wanted (at least 100, at most 10,000). */
const CANDIDATES_PER_RESULT = 10;

export const VECTOR_MAPPINGS: estypes.MappingTypeMapping = {
  dynamic: 'strict',
  properties: {
    organization_id: { type: 'keyword' },
    memory_item_id: { type: 'long' },
    memory_chunk_id: { type: 'long' },
    visibility: { type: 'keyword' },
    owner_client_key: { type: 'keyword' },
    expires_at_ms: { type: 'long' },
    position: { type: 'long' },
    deleted: { type: 'boolean' },
    vector: {
      type: 'dense_vector',
      index: true,
      similarity: 'cosine',
      index_options: { type: 'int8_hnsw', m: 16, ef_construction: 100 },
    },
  },
};

/** The kNN filter: what `scope` may see, live and unexpired. */
export function vectorFilter(scope: ElasticVectorScope): Query[] {
  const internal: Query = { term: { visibility: 'organization_internal' } };
  const own: Query = {
    bool: {
      filter: [{ term: { visibility: 'tool_private' } }, { term: { owner_client_key: scope.clientKey } }],
    },
  };
  const visibility: Query =
    scope.visibility === 'organization_internal'
      ? internal
      : scope.visibility === 'tool_private'
        ? own
        : { bool: { should: [internal, own], minimum_should_match: 1 } };
  return [
    { term: { organization_id: String(scope.organizationId) } },
    { term: { deleted: false } },
    visibility,
    {
      bool: {
        should: [
          { range: { expires_at_ms: { gt: scope.nowMs } } },
          { bool: { must_not: [{ exists: { field: 'expires_at_ms' } }] } },
        ],
        minimum_should_match: 1,
      },
    },
  ];
}

export class ElasticVectorIndex {
  private readonly client: Client;

  constructor(
    url: string,
    readonly index = VECTOR_INDEX,
  ) {
    this.client = createElasticClient(url);
  }

  async init(): Promise<void> {
    if (await this.client.indices.exists({ index: this.index })) return;
    try {
      await this.client.indices.create({
        index: this.index,
        settings: { number_of_shards: 1 },
        mappings: VECTOR_MAPPINGS,
      });
    } catch (error) {
      if (!JSON.stringify((error as { body?: unknown }).body ?? '').includes('resource_already_exists'))
        throw error;
    }
  }

  /** The highest read-model position written (0: none): where a restarted process resumes. */
  async maxPosition(): Promise<number> {
    const response = await this.client.search({
      index: this.index,
      size: 0,
      track_total_hits: false,
      aggs: { position: { max: { field: 'position' } } },
    });
    const aggregate = response.aggregations?.position as estypes.AggregationsMaxAggregate | undefined;
    return typeof aggregate?.value === 'number' ? aggregate.value : 0;
  }

  async write(rows: readonly ElasticVectorRow[]): Promise<void> {
    for (let start = 0; start < rows.length; start += BULK_BATCH) {
      const batch = rows.slice(start, start + BULK_BATCH);
      const operations = batch.flatMap((row) => [
        {
          index: {
            _index: this.index,
            _id: `chunk-${row.memory_chunk_id}`,
            version: row.position,
            version_type: 'external_gte' as const,
          },
        },
        {
          organization_id: String(row.organization_id),
          memory_item_id: row.memory_item_id,
          memory_chunk_id: row.memory_chunk_id,
          visibility: row.visibility,
          owner_client_key: row.owner_client_key,
          expires_at_ms: row.expires_at_ms,
          position: row.position,
          deleted: row.vector === null,
          ...(row.vector === null ? {} : { vector: Array.from(row.vector) }),
        },
      ]);
      const response = await this.client.bulk({ operations });
      if (!response.errors) continue;
      const failures = response.items
        .flatMap((item) => Object.values(item))
        .filter((result) => result.error !== undefined && result.status !== 409);
      if (failures.length > 0) {
        throw new Error(
          `Elasticsearch rejected ${failures.length} of ${batch.length} vector writes; first: ` +
            `${failures[0]._id ?? '?'} ${failures[0].status} ${failures[0].error?.reason ?? ''}`,
        );
      }
    }
  }

  async refresh(): Promise<void> {
    await this.client.indices.refresh({ index: this.index });
  }

  /** The `k` nearest chunks `scope` may see, with their cosine similarity. */
  async knn(
    scope: ElasticVectorScope,
    query: Float32Array,
    k: number,
  ): Promise<Array<{ chunkId: number; itemId: number; score: number }>> {
    const response = await this.client.search<{ memory_item_id: number; memory_chunk_id: number }>({
      index: this.index,
      size: k,
      track_total_hits: false,
      _source: ['memory_item_id', 'memory_chunk_id'],
      knn: {
        field: 'vector',
        query_vector: Array.from(query),
        k,
        num_candidates: Math.min(10_000, Math.max(100, k * CANDIDATES_PER_RESULT)),
        filter: vectorFilter(scope),
      },
    });
    return response.hits.hits.flatMap((hit) =>
      hit._source === undefined
        ? []
        : [
            {
              chunkId: hit._source.memory_chunk_id,
              itemId: hit._source.memory_item_id,
              // Elasticsearch's cosine _score is (1 + cosine) / 2.
              score: 2 * (hit._score ?? 0.5) - 1,
            },
          ],
    );
  }

  /** Deletes and recreates the index (the read model was reset). */
  async reset(): Promise<void> {
    await this.client.indices.delete({ index: this.index, ignore_unavailable: true });
    await this.init();
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
