/**
 * An approximate nearest-neighbour graph (HNSW) over chunk vectors: usearch (unum-cloud/usearch), the only file
 * importing it. Cosine distance; vectors quantized to `quantization` inside the graph (f16 by default: half of
 * f32's memory; i8, a quarter, measured at recall@10 0.93–0.96 against exact cosine where f16 gives 0.99). A graph
 * is either mutable (in memory, add/remove) or a read-only view of a saved file (memory-mapped: every process
 * viewing the same file shares the operating system's page cache).
 */
import { Index, MetricKind, ScalarKind, exactSearch } from 'usearch';

export type Quantization = 'f32' | 'f16' | 'bf16' | 'i8';

export interface AnnParameters {
  dimensions: number;
  quantization: Quantization;
  /** HNSW M: edges per node and layer. */
  connectivity: number;
  /** HNSW ef_construction. */
  expansionAdd: number;
  /** HNSW ef at search time (usearch searches with max(ef, k)). */
  expansionSearch: number;
}

/**
 * M 32, ef_construction 256: on the bench's topical vectors at a million chunks' density (100k × 384) recall@10
 * 0.971 against 0.909 with M 16 / 128 / 256, at twice the search time (about 1 ms in process) and about five times
 * the build. ef_search 640: at 1M × 384 (f16, four graph builds) ef 512 gave recall@10 0.933–0.955, ef 640
 * 0.967–0.973 (two builds), for ~27% more search time (docs/benchmarks.md, scale-vectors). A saved graph built with
 * other M, ef_construction or quantization is rebuilt; ef_search is a search setting (no rebuild).
 */
export const DEFAULT_ANN: Omit<AnnParameters, 'dimensions'> = {
  quantization: 'f16',
  connectivity: 32,
  expansionAdd: 256,
  expansionSearch: 640,
};

const SCALARS: Record<Quantization, ScalarKind> = {
  f32: ScalarKind.F32,
  f16: ScalarKind.F16,
  bf16: ScalarKind.BF16,
  i8: ScalarKind.I8,
};

export interface AnnMatch {
  key: number;
  /** Cosine distance (1 − cosine similarity). */
  distance: number;
}

export class AnnGraph {
  private readonly index: Index;

  private constructor(
    readonly parameters: AnnParameters,
    readonly readOnly: boolean,
  ) {
    this.index = new Index({
      dimensions: parameters.dimensions,
      metric: MetricKind.Cos,
      quantization: SCALARS[parameters.quantization],
      connectivity: parameters.connectivity,
      expansion_add: parameters.expansionAdd,
      expansion_search: parameters.expansionSearch,
      multi: false,
    });
  }

  static empty(parameters: AnnParameters): AnnGraph {
    return new AnnGraph(parameters, false);
  }

  /** A read-only, memory-mapped view of a saved graph (not copied into this process's heap). */
  static view(parameters: AnnParameters, path: string): AnnGraph {
    const graph = new AnnGraph(parameters, true);
    graph.index.view(path);
    return graph;
  }

  /** A mutable copy of a saved graph, in memory. */
  static load(parameters: AnnParameters, path: string): AnnGraph {
    const graph = new AnnGraph(parameters, false);
    graph.index.load(path);
    return graph;
  }

  get size(): number {
    return this.index.size();
  }

  /** Adds vectors (row-major, `keys.length` rows), replacing any stored under the same keys. */
  add(keys: readonly number[], vectors: Float32Array, threads = 0): void {
    if (keys.length === 0) return;
    const big = BigUint64Array.from(keys, (key) => BigInt(key));
    this.remove(keys);
    this.index.add(big, vectors, threads);
  }

  remove(keys: readonly number[]): void {
    if (keys.length === 0) return;
    const big = BigUint64Array.from(keys, (key) => BigInt(key));
    const present = this.index.contains(big);
    const found = (Array.isArray(present) ? present : [present])
      .map((yes, n) => (yes ? big[n] : null))
      .filter((key): key is bigint => key !== null);
    if (found.length > 0) this.index.remove(BigUint64Array.from(found));
  }

  /** The `k` nearest keys to `query`, nearest first. */
  search(query: Float32Array, k: number): AnnMatch[] {
    const out: AnnMatch[] = [];
    this.visitNearest(query, k, (key, distance) => {
      out.push({ key, distance });
      return true;
    });
    return out;
  }

  /**
   * The `k` nearest keys to `query`, nearest first, each passed to `visit` until it returns false: no object per
   * match (a hybrid search walks ~400 of them and keeps the live ones).
   */
  visitNearest(query: Float32Array, k: number, visit: (key: number, distance: number) => boolean): void {
    if (this.index.size() === 0 || k <= 0) return;
    const matches = this.index.search(query, Math.min(k, this.index.size()), 1);
    for (let n = 0; n < matches.keys.length; n++) {
      const key = matches.keys[n];
      // usearch pads missing results with the maximal key.
      if (key === 0xffffffffffffffffn) continue;
      if (!visit(Number(key), matches.distances[n])) return;
    }
  }

  save(path: string): void {
    this.index.save(path);
  }
}

/**
 * Exact cosine nearest neighbours by brute force (usearch's SIMD kernels): for each query row, the `k` nearest
 * rows of `dataset` as row numbers, nearest first. Used to measure the graph's recall.
 */
export function exactNearest(
  dataset: Float32Array,
  queries: Float32Array,
  dimensions: number,
  k: number,
): AnnMatch[][] {
  const rows = dataset.length / dimensions;
  const count = Math.min(k, rows);
  const out: AnnMatch[][] = [];
  const queryCount = queries.length / dimensions;
  if (count === 0) return Array.from({ length: queryCount }, () => []);
  const matches = exactSearch(dataset, queries, dimensions, count, MetricKind.Cos, 0) as unknown as {
    keys: BigUint64Array;
    distances: Float32Array;
  };
  for (let q = 0; q < queryCount; q++) {
    const list: AnnMatch[] = [];
    for (let n = 0; n < count; n++) {
      list.push({ key: Number(matches.keys[q * count + n]), distance: matches.distances[q * count + n] });
    }
    out.push(list);
  }
  return out;
}
