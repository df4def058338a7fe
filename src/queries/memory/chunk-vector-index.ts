import type { ReadStore } from '../../infrastructure/read-store/read-store.port';
import { AnnGraph, DEFAULT_ANN, type AnnParameters } from '../../infrastructure/vectors/ann-graph';
import {
  partitionName,
  type PartitionScope,
  type SnapshotManifest,
  type VectorSnapshotDirectory,
} from '../../infrastructure/vectors/vector-snapshot';
import {
  VectorPartition,
  type PartitionHit,
  type VectorEntry,
} from '../../infrastructure/vectors/vector-partition';
import { readVectorFeed } from './vector-feed';
import {
  MEMORY_VECTORS,
  MEMORY_VECTORS_PROJECTION,
  MEMORY_VECTORS_VERSION,
  decodeVector,
  type MemoryVectorDocument,
} from '../../projections/memory-vectors.projection';

/** Who is searching: decides which partitions a search opens. */
export interface VectorScope {
  organizationId: number;
  clientKey: string;
  visibility: 'tool_private' | 'organization_internal' | null;
  nowMs: number;
}

export interface ChunkVectorIndexOptions {
  parameters?: Omit<AnnParameters, 'dimensions'>;
  /**
   * A partition is compacted (base + delta saved as its next base) once its writes since the base reach
   * max(compactMin, min(compactFraction × base, compactMax)).
   */
  compactMin?: number;
  compactFraction?: number;
  compactMax?: number;
  onWarning?: (message: string) => void;
}

/** What the index has done (tests and the scale bench read it). */
export interface ChunkVectorIndexStats {
  /** Read-model rows read by catch-ups (a write must add only its own rows). */
  rowsRead: number;
  /** Catch-ups that found the read model moved. */
  catchUps: number;
  snapshotsViewed: number;
  snapshotsWritten: number;
  /** The read model was reset (rebuild): the index started again from nothing. */
  resets: number;
}

/**
 * The approximate nearest-neighbour index of the chunk vectors (the memory-vectors read model), one per process.
 *
 * - Partitions (VectorPartition): per organization, one for its `organization_internal` chunks and one per client
 *   key for its `tool_private` chunks. A search opens only the partitions its scope may see, so organization,
 *   visibility and owner are exact filters; expiry is checked on each hit (the graphs are over-fetched).
 * - Following the read model: before a search, the memory-vectors checkpoint is read; when it moved, only the
 *   rows written since (`position` greater than the one applied, tombstones included) are read and applied to
 *   the partitions' deltas. A write never reloads an organization's vectors.
 * - Persistence: partitions are saved (VectorSnapshotDirectory) and viewed memory-mapped, so every HTTP worker
 *   shares one copy in the page cache and a restart reads only the rows written after the saved position.
 * - Rebuild: a checkpoint behind the applied position, or of another projection version, means the read model
 *   was reset: the index drops everything (and the saved manifest) and follows the rebuild from nothing.
 */
export class ChunkVectorIndex {
  private readonly partitions = new Map<string, VectorPartition>();
  private readonly scopes = new Map<string, PartitionScope>();
  private readonly ann: Omit<AnnParameters, 'dimensions'>;
  private readonly compactMin: number;
  private readonly compactFraction: number;
  private readonly compactMax: number;
  private dimensions: number | null = null;
  /** The read-model position the partitions reflect. */
  private position = 0;
  private manifestStamp = -1;
  private catching: Promise<void> | null = null;
  readonly stats: ChunkVectorIndexStats = {
    rowsRead: 0,
    catchUps: 0,
    snapshotsViewed: 0,
    snapshotsWritten: 0,
    resets: 0,
  };

  constructor(
    private readonly readStore: ReadStore,
    private readonly snapshots: VectorSnapshotDirectory,
    private readonly options: ChunkVectorIndexOptions = {},
  ) {
    this.ann = options.parameters ?? DEFAULT_ANN;
    this.compactMin = options.compactMin ?? 2_000;
    this.compactFraction = options.compactFraction ?? 0.1;
    this.compactMax = options.compactMax ?? 20_000;
  }

  /** Live vectors in every partition of this process. */
  get size(): number {
    let total = 0;
    for (const partition of this.partitions.values()) total += partition.size;
    return total;
  }

  /** The `k` chunks most similar to `query` that `scope` may see, most similar first. */
  async search(scope: VectorScope, query: Float32Array, k: number): Promise<PartitionHit[]> {
    await this.catchUp();
    if (this.dimensions === null || query.length !== this.dimensions) return [];
    const names: string[] = [];
    const organization = scope.organizationId;
    if (scope.visibility !== 'tool_private') {
      names.push(
        partitionName({
          organization_id: organization,
          visibility: 'organization_internal',
          owner_client_key: null,
        }),
      );
    }
    if (scope.visibility !== 'organization_internal') {
      names.push(
        partitionName({
          organization_id: organization,
          visibility: 'tool_private',
          owner_client_key: scope.clientKey,
        }),
      );
    }
    const hits = names.flatMap((name) => this.partitions.get(name)?.search(query, k, scope.nowMs) ?? []);
    return hits.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId).slice(0, k);
  }

  /** Applies what the read model wrote since the last catch-up (one at a time in a process). */
  catchUp(): Promise<void> {
    this.catching ??= this.follow().finally(() => (this.catching = null));
    return this.catching;
  }

  private async follow(): Promise<void> {
    const checkpoint = await this.readStore.getCheckpoint(MEMORY_VECTORS_PROJECTION);
    const target = checkpoint?.position ?? 0;
    const reset =
      target < this.position || (checkpoint !== null && checkpoint.version !== MEMORY_VECTORS_VERSION);
    if (reset) {
      this.clear();
      this.stats.resets += 1;
      const manifest = this.snapshots.readManifest();
      if (
        manifest &&
        (manifest.position > target || manifest.projection_version !== MEMORY_VECTORS_VERSION)
      ) {
        this.snapshots.dropManifest();
      }
    }
    const stamp = this.snapshots.manifestStamp();
    if (stamp !== this.manifestStamp) {
      this.manifestStamp = stamp;
      this.adopt(this.snapshots.readManifest(), target);
    }
    if (target <= this.position) return;
    this.stats.catchUps += 1;
    await this.readFeed(this.position);
    this.position = target;
    await this.compactIfDue();
  }

  /**
   * Replaces this process's partitions by a saved snapshot (another process's compaction, or a restart) when it is
   * usable: of this projection version and graph parameters, not ahead of the read model. The feed then re-reads
   * the rows after its position (few: a snapshot is written at most a compaction threshold behind).
   */
  private adopt(manifest: SnapshotManifest | null, target: number): void {
    if (manifest === null || manifest.format !== 1) return;
    if (manifest.projection_version !== MEMORY_VECTORS_VERSION || manifest.position > target) return;
    // The saved graph's build parameters must match; ef_search is this process's own (a search-time setting).
    const { dimensions, expansionSearch: _saved, ...built } = manifest.parameters;
    const { expansionSearch: _own, ...wanted } = this.ann;
    if (JSON.stringify(built) !== JSON.stringify(wanted)) return;
    const parameters: AnnParameters = { ...this.ann, dimensions };
    try {
      const partitions = new Map<string, VectorPartition>();
      for (const [name, saved] of Object.entries(manifest.partitions)) {
        const file = this.snapshots.graphPath(saved.file);
        const graph = AnnGraph.view(parameters, file);
        partitions.set(
          name,
          new VectorPartition(parameters, graph, this.snapshots.readMetadata(saved.file), file),
        );
        this.scopes.set(name, {
          organization_id: saved.organization_id,
          visibility: saved.visibility,
          owner_client_key: saved.owner_client_key,
        });
      }
      this.partitions.clear();
      for (const [name, partition] of partitions) this.partitions.set(name, partition);
      this.dimensions = dimensions;
      this.position = manifest.position;
      this.stats.snapshotsViewed += 1;
    } catch (error) {
      // Swept or half-written by another process: keep what this process has; the feed still covers it.
      this.options.onWarning?.(
        `vector snapshot not usable: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** Reads the rows written after `after` (tombstones included), in position order, and applies them. */
  private async readFeed(after: number): Promise<void> {
    this.stats.rowsRead += await readVectorFeed(this.readStore, after, (rows) => this.apply(rows));
  }

  private apply(rows: readonly MemoryVectorDocument[]): void {
    const puts = new Map<string, VectorEntry[]>();
    for (const row of rows) {
      const scope: PartitionScope = {
        organization_id: row.organization_id,
        visibility: row.visibility === 'tool_private' ? 'tool_private' : 'organization_internal',
        owner_client_key: row.visibility === 'tool_private' ? row.owner_client_key : null,
      };
      const name = partitionName(scope);
      if (row.vector === null) {
        // A chunk has one row (its last state), so a page never holds both its put and its tombstone.
        this.partitions.get(name)?.remove(row.memory_chunk_id);
        continue;
      }
      const vector = decodeVector(row.vector);
      this.dimensions ??= vector.length;
      if (vector.length !== this.dimensions) {
        this.options.onWarning?.(
          `chunk ${row.memory_chunk_id}: a ${vector.length}-dimension vector in a ${this.dimensions}-dimension index, left out`,
        );
        continue;
      }
      this.scopes.set(name, scope);
      const list = puts.get(name) ?? [];
      list.push({
        chunkId: row.memory_chunk_id,
        itemId: row.memory_item_id,
        expiresAtMs: row.expires_at_ms,
        vector,
      });
      puts.set(name, list);
    }
    for (const [name, entries] of puts) this.partition(name).putMany(entries);
  }

  private partition(name: string): VectorPartition {
    let partition = this.partitions.get(name);
    if (!partition) {
      partition = new VectorPartition({ ...this.ann, dimensions: this.dimensions ?? 0 });
      this.partitions.set(name, partition);
    }
    return partition;
  }

  private due(partition: VectorPartition): boolean {
    const threshold = Math.max(
      this.compactMin,
      Math.min(this.compactFraction * partition.baseSize, this.compactMax),
    );
    return partition.pending >= threshold;
  }

  /**
   * Saves every partition with writes since its base (new files and a new manifest at this position) once one of
   * them reached its threshold, then views the saved files. Skipped while another process holds the lock.
   */
  private async compactIfDue(): Promise<void> {
    if (this.dimensions === null || ![...this.partitions.values()].some((p) => this.due(p))) return;
    const dimensions = this.dimensions;
    const position = this.position;
    const parameters: AnnParameters = { ...this.ann, dimensions };
    const saved = new Map<string, { file: string; count: number }>();
    const plans: Array<[string, VectorPartition]> = [...this.partitions].filter(([, p]) => p.pending > 0);
    const compacted = new Map<string, Awaited<ReturnType<VectorPartition['compacted']>>>();
    for (const [name, partition] of plans)
      compacted.set(name, await partition.compacted((ids) => this.vectorsOf(ids)));
    const wrote = this.snapshots.withLock(() => {
      const previous = this.snapshots.readManifest();
      for (const [name, { graph, metadata }] of compacted) {
        const file = this.snapshots.fileFor(name, position);
        graph.save(this.snapshots.graphPath(file));
        this.snapshots.writeMetadata(file, metadata);
        saved.set(name, { file, count: metadata.length });
      }
      const partitions: SnapshotManifest['partitions'] = {};
      for (const name of this.partitions.keys()) {
        const scope = this.scopes.get(name);
        const kept = saved.get(name) ?? previous?.partitions[name];
        if (scope && kept) partitions[name] = { ...scope, file: kept.file, count: kept.count };
      }
      this.snapshots.writeManifest({
        format: 1,
        position,
        projection_version: MEMORY_VECTORS_VERSION,
        parameters,
        partitions,
      });
      this.snapshots.sweep();
    });
    if (!wrote) return;
    this.stats.snapshotsWritten += 1;
    // View what was just saved: the private copies are freed, the pages shared with the other processes.
    this.manifestStamp = this.snapshots.manifestStamp();
    this.position = 0;
    this.partitions.clear();
    this.adopt(this.snapshots.readManifest(), position);
    if (this.position !== position) {
      // The saved snapshot could not be viewed back: start again from the read model.
      this.clear();
    }
  }

  private async vectorsOf(chunkIds: number[]): Promise<Map<number, Float32Array>> {
    const out = new Map<number, Float32Array>();
    for (let start = 0; start < chunkIds.length; start += 1000) {
      const ids = chunkIds.slice(start, start + 1000).map((id) => `chunk-${id}`);
      const rows = await this.readStore.getMany<MemoryVectorDocument>(MEMORY_VECTORS, ids);
      this.stats.rowsRead += rows.size;
      for (const row of rows.values())
        if (row.vector !== null) out.set(row.memory_chunk_id, decodeVector(row.vector));
    }
    return out;
  }

  private clear(): void {
    this.partitions.clear();
    this.scopes.clear();
    this.dimensions = null;
    this.position = 0;
    this.manifestStamp = -1;
  }
}
