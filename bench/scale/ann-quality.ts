/**
 * The ANN graph's quality at given HNSW settings, on vectors held in memory (no store, no HTTP): the graph built
 * from every vector (AnnGraph, as the embedded index builds it), then for each query the index's 100 nearest at
 * the setting's ef_search against the exact 100 nearest (brute force):
 *
 * - recall@10 and recall@100: the share of the exact top 10 (top 100) the index returned in its top 10 (top 100);
 * - within 1% of the 10th: the share of the index's top 10 whose cosine distance is at most 1.01 × the exact 10th
 *   nearest distance (a neighbour as near as the true ones counts, as ties do when many are nearly equidistant);
 * - the build time and the median search time in this process.
 *
 * clusteredVectors(): a Gaussian mixture in low-dimensional subspaces (each cluster a random centre and its own
 * random subspace of SUBSPACE_DIMS directions, plus a little isotropic noise), closer to real embeddings' local
 * structure than the topical set, whose nearest neighbours are nearly all at the same distance.
 */
import {
  AnnGraph,
  exactNearest,
  type AnnMatch,
  type Quantization,
} from '../../src/infrastructure/vectors/ann-graph';

export interface AnnSetting {
  connectivity: number;
  expansionAdd: number;
  expansionSearch: number;
}

export interface AnnQuality {
  recallAt10: number;
  recallAt100: number;
  within1PercentOf10th: number;
  buildS: number;
  searchP50Ms: number;
}

const K = 100;
const CLUSTERS = 1000;
const SUBSPACE_DIMS = 12;
const NOISE = 0.05;

/** Normal deviates from a seeded generator (Box–Muller over mulberry32). */
function gaussian(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

function normalize(vector: Float32Array): void {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < vector.length; i++) vector[i] /= norm;
}

/** `count` unit vectors (row-major) of a Gaussian mixture in low-dimensional subspaces. */
export function clusteredVectors(count: number, dims: number, seed = 17): Float32Array {
  const normal = gaussian(seed);
  const centres = Array.from({ length: CLUSTERS }, () => {
    const centre = Float32Array.from({ length: dims }, normal);
    normalize(centre);
    return centre;
  });
  const bases = Array.from({ length: CLUSTERS }, () =>
    Array.from({ length: SUBSPACE_DIMS }, () => {
      const direction = Float32Array.from({ length: dims }, normal);
      normalize(direction);
      return direction;
    }),
  );
  const out = new Float32Array(count * dims);
  for (let n = 0; n < count; n++) {
    const cluster = Math.floor(((n * 2654435761) >>> 0) % CLUSTERS);
    const row = out.subarray(n * dims, (n + 1) * dims);
    row.set(centres[cluster]);
    // Spread within the subspace: each direction's weight shrinks (a few dominant directions, as in real data).
    for (let d = 0; d < SUBSPACE_DIMS; d++) {
      const weight = (0.35 / Math.sqrt(d + 1)) * normal();
      const direction = bases[cluster][d];
      for (let i = 0; i < dims; i++) row[i] += weight * direction[i];
    }
    for (let i = 0; i < dims; i++) row[i] += (NOISE * normal()) / Math.sqrt(dims / 64);
    normalize(row);
  }
  return out;
}

/** The exact K nearest rows of `vectors` to each query (row numbers and distances, nearest first). */
export function exactTop(vectors: Float32Array, queries: Float32Array, dims: number): AnnMatch[][] {
  return exactNearest(vectors, queries, dims, K);
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The graph's quality at `setting` over `vectors` (row number = key) for `queries` against `exact`. */
export function annQuality(
  vectors: Float32Array,
  queries: Float32Array,
  dims: number,
  exact: AnnMatch[][],
  setting: AnnSetting,
  quantization: Quantization,
): AnnQuality {
  const graph = AnnGraph.empty({ dimensions: dims, quantization, ...setting });
  const rows = vectors.length / dims;
  const started = performance.now();
  graph.add(
    Array.from({ length: rows }, (_, n) => n),
    vectors,
  );
  const buildS = (performance.now() - started) / 1000;
  let found10 = 0;
  let found100 = 0;
  let within = 0;
  const times: number[] = [];
  for (let q = 0; q < exact.length; q++) {
    const query = queries.subarray(q * dims, (q + 1) * dims);
    const at = performance.now();
    const hits = graph.search(query, K);
    times.push(performance.now() - at);
    const top10 = new Set(exact[q].slice(0, 10).map((m) => m.key));
    const top100 = new Set(exact[q].map((m) => m.key));
    const tenth = exact[q][Math.min(9, exact[q].length - 1)].distance;
    hits.slice(0, 10).forEach((hit) => {
      if (top10.has(hit.key)) found10 += 1;
      // The exact distance (the graph's is of its quantized vectors): every vector here is a unit vector.
      if (1 - dot(query, vectors.subarray(hit.key * dims, (hit.key + 1) * dims)) <= tenth * 1.01) within += 1;
    });
    for (const hit of hits) if (top100.has(hit.key)) found100 += 1;
  }
  return {
    recallAt10: found10 / (exact.length * 10),
    recallAt100: found100 / (exact.length * K),
    within1PercentOf10th: within / (exact.length * 10),
    buildS,
    searchP50Ms: median(times),
  };
}
