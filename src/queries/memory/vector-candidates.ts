import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { join } from 'node:path';
import { Embeddings } from '../../ai/embeddings';
import type { CairnConfig } from '../../config/config';
import { CONFIG } from '../../core.module';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { DEFAULT_ANN, type AnnParameters } from '../../infrastructure/vectors/ann-graph';
import { VectorSnapshotDirectory } from '../../infrastructure/vectors/vector-snapshot';
import { ChunkVectorIndex, type VectorScope } from './chunk-vector-index';

export type { VectorScope } from './chunk-vector-index';

/** Where vectors are searched: the embedded ANN index, or Elasticsearch's kNN (ElasticChunkVectors). */
export interface ChunkVectorSearch {
  search(
    scope: VectorScope,
    query: Float32Array,
    k: number,
  ): Promise<Array<{ chunkId: number; itemId: number; score: number }>>;
  close?(): Promise<void>;
}

/** The embedded index's graph parameters from the configuration. */
export function annParameters(
  config: Pick<CairnConfig, 'vectorQuantization' | 'vectorEfSearch'>,
): Omit<AnnParameters, 'dimensions'> {
  return { ...DEFAULT_ANN, quantization: config.vectorQuantization, expansionSearch: config.vectorEfSearch };
}

/** The embedded index's directory under the data directory. */
export function vectorIndexDir(dataDir: string): string {
  return join(dataDir, 'vector-index');
}

/**
 * Semantic candidates: the query's embedding against the organization's chunk vectors through an approximate
 * nearest-neighbour index (ChunkVectorIndex on the embedded store, dense_vector kNN on Elasticsearch), limited to
 * what the connector may see. Returns [] when embeddings are off or the model fails: search then stays lexical.
 */
@Injectable()
export class VectorCandidates implements OnModuleDestroy {
  private readonly logger = new Logger('vector-search');
  private readonly vectors: Promise<ChunkVectorSearch> | null;

  constructor(
    private readonly embeddings: Embeddings,
    @Inject(READ_STORE) readStore: ReadStore,
    @Inject(CONFIG)
    config: Pick<CairnConfig, 'dataDir' | 'elasticsearchUrl' | 'vectorQuantization' | 'vectorEfSearch'>,
  ) {
    this.vectors = !embeddings.enabled
      ? null
      : config.elasticsearchUrl
        ? import('./elastic-chunk-vectors').then(
            ({ ElasticChunkVectors }) =>
              new ElasticChunkVectors(config.elasticsearchUrl as string, readStore),
          )
        : Promise.resolve(
            new ChunkVectorIndex(readStore, new VectorSnapshotDirectory(vectorIndexDir(config.dataDir)), {
              parameters: annParameters(config),
              onWarning: (message) => this.logger.warn(message),
            }),
          );
  }

  get enabled(): boolean {
    return this.embeddings.enabled;
  }

  async search(
    query: string,
    scope: VectorScope,
    limit: number,
  ): Promise<Array<{ memory_item_id: number; memory_chunk_id: number; score: number }>> {
    if (!this.embeddings.enabled || this.vectors === null) return [];
    let queryVector: number[];
    try {
      [queryVector] = await this.embeddings.embed([query]);
    } catch (error) {
      this.logger.warn(
        `query embedding failed, lexical only: ${error instanceof Error ? error.message : String(error)}`,
      );
      return [];
    }
    const hits = await (await this.vectors).search(scope, Float32Array.from(queryVector), limit);
    return hits.map((hit) => ({
      memory_item_id: hit.itemId,
      memory_chunk_id: hit.chunkId,
      score: hit.score,
    }));
  }

  async onModuleDestroy(): Promise<void> {
    await (await this.vectors)?.close?.();
  }
}
