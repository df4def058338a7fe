import { exactNearest } from '../../src/infrastructure/vectors/ann-graph';
import type { ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { decodeVector } from '../../src/projections/memory-vectors.projection';
import type { ChunkVectorIndex } from '../../src/queries/memory/chunk-vector-index';
import { readVectorFeed } from '../../src/queries/memory/vector-feed';

/** The exact top 100 of each query (chunk ids and distances, nearest first): brute force over the read model. */
export async function exactTop100(
  readStore: ReadStore,
  queries: Float32Array[],
  dims: number,
): Promise<Array<Array<{ id: number; distance: number }>>> {
  const flat = new Float32Array(queries.length * dims);
  queries.forEach((query, n) => flat.set(query, n * dims));
  // Exact top 100 per query, page by page of the read model (every chunk is organization_internal, unexpired).
  const best: Array<Array<{ id: number; distance: number }>> = queries.map(() => []);
  await readVectorFeed(readStore, 0, (rows) => {
    const live = rows.filter((row) => row.vector !== null);
    const page = new Float32Array(live.length * dims);
    live.forEach((row, n) => page.set(decodeVector(row.vector as string), n * dims));
    exactNearest(page, flat, dims, 100).forEach((matches, q) => {
      const merged = [
        ...best[q],
        ...matches.map((m) => ({ id: live[m.key].memory_chunk_id, distance: m.distance })),
      ];
      best[q] = merged.sort((a, b) => a.distance - b.distance).slice(0, 100);
    });
  });
  return best;
}

export interface RecallFigures {
  recallAt10: number;
  recallAt100: number;
  /** The share of the index's top 10 at most 1% farther than the exact 10th nearest (ann-quality.ts). */
  within1PercentOf10th: number;
}

/**
 * Recall@10 and @100 of an index against the exact top 100s, and its top 10's share within 1% of the exact 10th
 * distance (the index's cosine similarity, of its quantized vectors). Every chunk is organization_internal.
 */
export async function recallFigures(
  index: ChunkVectorIndex,
  organizationId: number,
  clientKey: string,
  queries: Float32Array[],
  exactTop: Array<Array<{ id: number; distance: number }>>,
): Promise<RecallFigures> {
  let found10 = 0;
  let found100 = 0;
  let within = 0;
  for (let q = 0; q < queries.length; q++) {
    const ann = await index.search(
      { organizationId, clientKey, visibility: 'organization_internal', nowMs: Date.now() },
      queries[q],
      100,
    );
    const top10 = new Set(exactTop[q].slice(0, 10).map((hit) => hit.id));
    const top100 = new Set(exactTop[q].map((hit) => hit.id));
    const tenth = exactTop[q][Math.min(9, exactTop[q].length - 1)].distance;
    ann.slice(0, 10).forEach((hit) => {
      if (top10.has(hit.chunkId)) found10 += 1;
      if (1 - hit.score <= tenth * 1.01) within += 1;
    });
    for (const hit of ann) if (top100.has(hit.chunkId)) found100 += 1;
  }
  return {
    recallAt10: found10 / (queries.length * 10),
    recallAt100: found100 / (queries.length * 100),
    within1PercentOf10th: within / (queries.length * 10),
  };
}
