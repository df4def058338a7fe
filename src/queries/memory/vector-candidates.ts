import { Inject, Injectable, Logger } from '@nestjs/common';
import { Embeddings } from '../../ai/embeddings';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { MEMORY_VECTORS, type MemoryVectorDocument } from '../../projections/memory-vectors.projection';

export interface VectorScope {
  organizationId: number;
  clientKey: string;
  visibility: 'tool_private' | 'organization_internal' | null;
  nowMs: number;
}

interface VectorRow {
  memory_item_id: number;
  memory_chunk_id: number;
  visibility: string;
  owner_client_key: string | null;
  expires_at_ms: number | null;
  vector: Float32Array;
  norm: number;
}

interface OrgVectors {
  position: number;
  rows: VectorRow[];
}

/**
 * Semantic candidates: the query's embedding against every chunk vector of the organization (exact cosine, vectors
 * cached per organization until the vectors projection moves). Returns [] when embeddings are off or the model
 * fails: search then stays lexical.
 */
@Injectable()
export class VectorCandidates {
  private readonly logger = new Logger('vector-search');
  private readonly cache = new Map<number, OrgVectors>();

  constructor(
    private readonly embeddings: Embeddings,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  get enabled(): boolean {
    return this.embeddings.enabled;
  }

  async search(
    query: string,
    scope: VectorScope,
    limit: number,
  ): Promise<Array<{ memory_item_id: number; memory_chunk_id: number; score: number }>> {
    if (!this.embeddings.enabled) return [];
    let queryVector: number[];
    try {
      [queryVector] = await this.embeddings.embed([query]);
    } catch (error) {
      this.logger.warn(
        `query embedding failed, lexical only: ${error instanceof Error ? error.message : String(error)}`,
      );
      return [];
    }
    const q = Float32Array.from(queryVector);
    const qNorm = Math.hypot(...q) || 1;
    const rows = (await this.vectors(scope.organizationId)).rows.filter(
      (row) =>
        (row.expires_at_ms === null || row.expires_at_ms > scope.nowMs) &&
        (scope.visibility === 'tool_private'
          ? row.visibility === 'tool_private' && row.owner_client_key === scope.clientKey
          : scope.visibility === 'organization_internal'
            ? row.visibility === 'organization_internal'
            : row.visibility === 'organization_internal' || row.owner_client_key === scope.clientKey),
    );
    return rows
      .filter((row) => row.vector.length === q.length)
      .map((row) => {
        let dot = 0;
        for (let i = 0; i < q.length; i++) dot += q[i] * row.vector[i];
        return {
          memory_item_id: row.memory_item_id,
          memory_chunk_id: row.memory_chunk_id,
          score: dot / (qNorm * row.norm),
        };
      })
      .filter((candidate) => candidate.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }

  private async vectors(organizationId: number): Promise<OrgVectors> {
    const position = (await this.readStore.getCheckpoint('memory-vectors'))?.position ?? 0;
    const cached = this.cache.get(organizationId);
    if (cached && cached.position === position) return cached;
    const rows: OrgVectors['rows'] = [];
    for (let offset = 0; ; offset += 5000) {
      const page = await this.readStore.find<MemoryVectorDocument>(MEMORY_VECTORS, {
        filter: { organization_id: organizationId },
        limit: 5000,
        offset,
      });
      for (const doc of page.items) {
        const vector = Float32Array.from(doc.vector);
        rows.push({
          memory_item_id: doc.memory_item_id,
          memory_chunk_id: doc.memory_chunk_id,
          visibility: doc.visibility,
          owner_client_key: doc.owner_client_key,
          expires_at_ms: doc.expires_at_ms,
          vector,
          norm: Math.hypot(...vector) || 1,
        });
      }
      if (page.items.length < 5000) break;
    }
    const loaded = { position, rows };
    this.cache.set(organizationId, loaded);
    return loaded;
  }
}
