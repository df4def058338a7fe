import type { ReadStore } from '../../infrastructure/read-store/read-store.port';
import { ElasticVectorIndex } from '../../infrastructure/search/elastic/elastic-vector-index';
import { MEMORY_VECTORS_PROJECTION, decodeVector } from '../../projections/memory-vectors.projection';
import type { VectorScope } from './chunk-vector-index';
import { readVectorFeed } from './vector-feed';
import type { ChunkVectorSearch } from './vector-candidates';

/**
 * Vector search on Elasticsearch: the memory-vectors read model is copied into the vector index
 * (ElasticVectorIndex) by following its change feed before a search, as the embedded index follows it (only the
 * rows written since the last position; a restarted process resumes from the highest position the index holds;
 * external versions make the same rows written by two processes harmless), then a filtered kNN search.
 */
export class ElasticChunkVectors implements ChunkVectorSearch {
  private readonly index: ElasticVectorIndex;
  private position: number | null = null;
  private catching: Promise<void> | null = null;

  constructor(
    url: string,
    private readonly readStore: ReadStore,
    index?: ElasticVectorIndex,
  ) {
    this.index = index ?? new ElasticVectorIndex(url);
  }

  async search(scope: VectorScope, query: Float32Array, k: number) {
    this.catching ??= this.follow().finally(() => (this.catching = null));
    await this.catching;
    return this.index.knn(scope, query, k);
  }

  private async follow(): Promise<void> {
    if (this.position === null) {
      await this.index.init();
      this.position = await this.index.maxPosition();
    }
    const target = (await this.readStore.getCheckpoint(MEMORY_VECTORS_PROJECTION))?.position ?? 0;
    if (target < this.position) {
      // The read model was reset (rebuild): so is the vector index.
      await this.index.reset();
      this.position = 0;
    }
    if (target <= this.position) return;
    let wrote = 0;
    await readVectorFeed(this.readStore, this.position, async (rows) => {
      wrote += rows.length;
      await this.index.write(
        rows.map((row) => ({ ...row, vector: row.vector === null ? null : decodeVector(row.vector) })),
      );
    });
    if (wrote > 0) await this.index.refresh();
    this.position = target;
  }

  async close(): Promise<void> {
    await this.index.close();
  }
}
