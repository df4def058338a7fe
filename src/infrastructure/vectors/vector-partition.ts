import { AnnGraph, type AnnParameters } from './ann-graph';

/** What filters and groups a chunk's vector. */
export interface ChunkEntry {
  chunkId: number;
  itemId: number;
  /** Epoch ms, null: never expires. */
  expiresAtMs: number | null;
}

/** One chunk vector with what filters and groups it. */
export interface VectorEntry extends ChunkEntry {
  vector: Float32Array;
}

export interface PartitionHit {
  chunkId: number;
  itemId: number;
  /** Cosine similarity. */
  score: number;
}

/** BaseMetadata.indexOf: interpolation probes before it falls back to halving. */
const INTERPOLATION_PROBES = 4;

/** The metadata of a base graph's chunks, sorted by chunk id (looked up by indexOf; 24 bytes a chunk). */
export class BaseMetadata {
  constructor(
    readonly chunkIds: Float64Array,
    readonly itemIds: Float64Array,
    /** NaN: never expires. */
    readonly expiresAtMs: Float64Array,
  ) {}

  static empty(): BaseMetadata {
    return new BaseMetadata(new Float64Array(0), new Float64Array(0), new Float64Array(0));
  }

  get length(): number {
    return this.chunkIds.length;
  }

  /**
   * Where `chunkId` is (-1: absent). A base's chunk ids are nearly dense (a read model's row ids), so a probe where
   * the id would be if they were evenly spread lands on it or beside it: a hybrid search looks up each of the
   * graph's ~400 matches here, and a binary search of a million ids took ~20 probes, most of them cache misses
   * (~0.7 µs a lookup in the server). At most INTERPOLATION_PROBES such probes, then a binary search of what is
   * left, so ids spread unevenly cost no more than before.
   */
  indexOf(chunkId: number): number {
    const ids = this.chunkIds;
    let lo = 0;
    let hi = ids.length - 1;
    for (let probe = 0; probe < INTERPOLATION_PROBES && lo <= hi; probe++) {
      const low = ids[lo];
      const high = ids[hi];
      if (chunkId < low || chunkId > high) return -1;
      if (low === high) return lo;
      // chunkId within [low, high]: the probe is within [lo, hi].
      const at = lo + Math.floor(((chunkId - low) / (high - low)) * (hi - lo));
      const value = ids[at];
      if (value === chunkId) return at;
      if (value < chunkId) lo = at + 1;
      else hi = at - 1;
    }
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const value = ids[mid];
      if (value === chunkId) return mid;
      if (value < chunkId) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}

/**
 * The vectors of one partition (an organization's internal chunks, or one client's tool_private chunks: a search
 * only ever opens the partitions its scope may see, so visibility and ownership are exact by construction).
 *
 * A partition is a base (a saved graph, viewed read-only and memory-mapped, with its metadata) plus a delta: the
 * vectors written since the base was saved, in a small mutable graph of this process, and the base chunks removed
 * or replaced since (left out of results). A write touches only the delta; compaction (see ChunkVectorIndex) saves
 * base + delta as the next base.
 */
export class VectorPartition {
  private readonly delta: AnnGraph;
  private readonly deltaEntries = new Map<number, ChunkEntry>();
  /** Base chunks removed or replaced since the base was saved. */
  private readonly removed = new Set<number>();

  constructor(
    readonly parameters: AnnParameters,
    private readonly base: AnnGraph | null = null,
    private readonly baseMetadata: BaseMetadata = BaseMetadata.empty(),
    /** The file the base was viewed from (compaction loads a mutable copy of it). */
    readonly baseFile: string | null = null,
  ) {
    this.delta = AnnGraph.empty(parameters);
  }

  /** Live vectors. */
  get size(): number {
    return this.baseMetadata.length - this.removed.size + this.deltaEntries.size;
  }

  /** Writes since the base: what compaction would fold into it. */
  get pending(): number {
    return this.deltaEntries.size + this.removed.size;
  }

  get baseSize(): number {
    return this.baseMetadata.length;
  }

  /** Adds entries to the delta (one multi-threaded graph add), replacing their chunks' earlier vectors. */
  putMany(entries: readonly VectorEntry[]): void {
    if (entries.length === 0) return;
    const dims = this.parameters.dimensions;
    const matrix = new Float32Array(entries.length * dims);
    entries.forEach((entry, n) => {
      this.removeFromBase(entry.chunkId);
      this.deltaEntries.set(entry.chunkId, {
        chunkId: entry.chunkId,
        itemId: entry.itemId,
        expiresAtMs: entry.expiresAtMs,
      });
      matrix.set(entry.vector, n * dims);
    });
    this.delta.add(
      entries.map((entry) => entry.chunkId),
      matrix,
    );
  }

  remove(chunkId: number): void {
    if (this.deltaEntries.delete(chunkId)) this.delta.remove([chunkId]);
    this.removeFromBase(chunkId);
  }

  /**
   * The `k` most similar live, unexpired chunks (cosine similarity > 0), most similar first. Each graph is asked
   * for more than `k` (removed and expired chunks are dropped after the graph search), and again for four times as
   * many until it alone yields `k` live chunks or holds no more that could: the other graph's hits never stand in
   * for them (an organization whose base is mostly expired still gets its base's nearest live chunks).
   */
  search(query: Float32Array, k: number, nowMs: number): PartitionHit[] {
    if (this.size === 0 || k <= 0) return [];
    const hits = [
      ...nearestLive(this.base, query, k, (key) => this.liveItemInBase(key, nowMs)),
      ...nearestLive(this.delta, query, k, (key) => this.liveItemInDelta(key, nowMs)),
    ];
    return hits.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId).slice(0, k);
  }

  /** The item of a base chunk that is live (not removed, not expired), or null. */
  private liveItemInBase(chunkId: number, nowMs: number): number | null {
    if (this.removed.has(chunkId)) return null;
    const at = this.baseMetadata.indexOf(chunkId);
    if (at < 0) return null;
    const expires = this.baseMetadata.expiresAtMs[at];
    if (!Number.isNaN(expires) && expires <= nowMs) return null;
    return this.baseMetadata.itemIds[at];
  }

  /** The item of a delta chunk that is live (not expired), or null. */
  private liveItemInDelta(chunkId: number, nowMs: number): number | null {
    const entry = this.deltaEntries.get(chunkId);
    return !entry || (entry.expiresAtMs !== null && entry.expiresAtMs <= nowMs) ? null : entry.itemId;
  }

  /**
   * Base + delta as one mutable graph with its metadata (sorted by chunk id), to be saved as the next base. The
   * delta keeps no copy of its vectors: without a base the delta graph itself is the result; with one, a mutable
   * copy of the base file is loaded (the caller holds a whole partition's memory meanwhile) and the delta's
   * vectors are read again through `vectorsOf` (at most a compaction threshold of them).
   */
  async compacted(
    vectorsOf: (chunkIds: number[]) => Promise<Map<number, Float32Array>>,
  ): Promise<{ graph: AnnGraph; metadata: BaseMetadata }> {
    const entries = [...this.deltaEntries.values()];
    const rows: Array<[number, number, number]> = [];
    const meta = this.baseMetadata;
    for (let n = 0; n < meta.length; n++) {
      if (!this.removed.has(meta.chunkIds[n]))
        rows.push([meta.chunkIds[n], meta.itemIds[n], meta.expiresAtMs[n]]);
    }
    for (const entry of entries) rows.push([entry.chunkId, entry.itemId, entry.expiresAtMs ?? Number.NaN]);
    rows.sort((a, b) => a[0] - b[0]);
    const metadata = new BaseMetadata(
      Float64Array.from(rows, (row) => row[0]),
      Float64Array.from(rows, (row) => row[1]),
      Float64Array.from(rows, (row) => row[2]),
    );
    if (this.baseFile === null || meta.length === 0) return { graph: this.delta, metadata };
    const graph = AnnGraph.load(this.parameters, this.baseFile);
    graph.remove([...this.removed]);
    const dims = this.parameters.dimensions;
    const ids = entries.map((entry) => entry.chunkId);
    const vectors = await vectorsOf(ids);
    const present = ids.filter((id) => vectors.get(id)?.length === dims);
    const matrix = new Float32Array(present.length * dims);
    present.forEach((id, n) => matrix.set(vectors.get(id) as Float32Array, n * dims));
    graph.add(present, matrix);
    return { graph, metadata };
  }

  private removeFromBase(chunkId: number): void {
    if (this.baseMetadata.indexOf(chunkId) >= 0) this.removed.add(chunkId);
  }
}

/**
 * One graph's nearest live chunks with a positive similarity: at least `k` of them when it holds them (all it found,
 * nearest first). Asks for max(2k, k + 16), then four times as many, until `k` live ones are found, the graph has
 * no more, or the farthest match asked for is already at a similarity of 0 or less (every later one is farther).
 * `liveItem`: a chunk's item when it is live, else null.
 */
function nearestLive(
  graph: AnnGraph | null,
  query: Float32Array,
  k: number,
  liveItem: (chunkId: number) => number | null,
): PartitionHit[] {
  if (graph === null || graph.size === 0) return [];
  for (let fetch = Math.max(2 * k, k + 16); ; fetch *= 4) {
    const hits: PartitionHit[] = [];
    let farthest = 0;
    graph.visitNearest(query, fetch, (chunkId, distance) => {
      const score = 1 - distance;
      farthest = distance;
      if (score <= 0) return false;
      const itemId = liveItem(chunkId);
      if (itemId !== null) hits.push({ chunkId, itemId, score });
      return true;
    });
    if (hits.length >= k || fetch >= graph.size || 1 - farthest <= 0) return hits;
  }
}
