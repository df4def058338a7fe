import { exactNearest } from '../../src/infrastructure/vectors/ann-graph';
import type { ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { decodeVector } from '../../src/projections/memory-vectors.projection';
import type { ChunkVectorIndex } from '../../src/queries/memory/chunk-vector-index';
import { readVectorFeed } from '../../src/queries/memory/vector-feed';

/** The exact top 10 chunk ids of each query: brute force over every vector of the read model. */
export async function exactTop10(
  readStore: ReadStore,
  queries: Float32Array[],
  dims: number,
): Promise<Array<Set<number>>> {
  const flat = new Float32Array(queries.length * dims);
  queries.forEach((query, n) => flat.set(query, n * dims));
  // Exact top 10 per query, page by page of the read model (every chunk is organization_internal, unexpired).
  const best: Array<Array<{ id: number; distance: number }>> = queries.map(() => []);
  await readVectorFeed(readStore, 0, (rows) => {
    const live = rows.filter((row) => row.vector !== null);
    const page = new Float32Array(live.length * dims);
    live.forEach((row, n) => page.set(decodeVector(row.vector as string), n * dims));
    exactNearest(page, flat, dims, 10).forEach((matches, q) => {
      const merged = [
        ...best[q],
        ...matches.map((m) => ({ id: live[m.key].memory_chunk_id, distance: m.distance })),
      ];
      best[q] = merged.sort((a, b) => a.distance - b.distance).slice(0, 10);
    });
  });
  return best.map((hits) => new Set(hits.map((hit) => hit.id)));
}

/** Recall@10 of an index against the exact top 10s (every chunk is organization_internal, unexpired). */
export async function recallAt10(
  index: ChunkVectorIndex,
  organizationId: number,
  clientKey: string,
  queries: Float32Array[],
  exactTop: Array<Set<number>>,
): Promise<number> {
  let found = 0;
  for (let q = 0; q < queries.length; q++) {
    const ann = await index.search(
      { organizationId, clientKey, visibility: 'organization_internal', nowMs: Date.now() },
      queries[q],
      10,
    );
    found += ann.filter((hit) => exactTop[q].has(hit.chunkId)).length;
  }
  return found / (queries.length * 10);
}
