/**
 * The saved vector index in a directory (`$CAIRN_DATA_DIR/vector-index` on the embedded store):
 *
 * - `manifest.json`: the read-model position and projection version the saved partitions reflect, the graph
 *   parameters, and per partition its files and scope. Replaced atomically (written aside, renamed).
 * - per partition, `<file>.usearch` (the graph, viewed memory-mapped by every process) and `<file>.meta` (its
 *   chunks' ids, items and expiry, sorted by chunk id). A file is never rewritten: a compaction writes new files
 *   (named after the position) and a new manifest; files no manifest names are deleted a minute later (a process
 *   may still be opening them; a process that has viewed one keeps its mapping after the unlink).
 * - `compaction.lock`: held (created exclusively) by the one process writing a snapshot; a lock older than
 *   LOCK_STALE_MS is taken over (its holder died).
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { AnnParameters } from './ann-graph';
import { BaseMetadata } from './vector-partition';

export interface PartitionScope {
  organization_id: number;
  visibility: 'organization_internal' | 'tool_private';
  owner_client_key: string | null;
}

export interface SnapshotManifest {
  format: 1;
  /** The memory-vectors checkpoint the partitions reflect. */
  position: number;
  projection_version: number;
  parameters: AnnParameters;
  partitions: Record<string, PartitionScope & { file: string; count: number }>;
}

const MANIFEST = 'manifest.json';
const LOCK = 'compaction.lock';
const LOCK_STALE_MS = 10 * 60_000;
const SWEEP_AFTER_MS = 60_000;

/** A partition's name: its scope, as one string. */
export function partitionName(scope: PartitionScope): string {
  return scope.visibility === 'tool_private'
    ? `${scope.organization_id}:private:${scope.owner_client_key ?? ''}`
    : `${scope.organization_id}:internal`;
}

export class VectorSnapshotDirectory {
  constructor(readonly dir: string) {}

  readManifest(): SnapshotManifest | null {
    try {
      return JSON.parse(readFileSync(join(this.dir, MANIFEST), 'utf8')) as SnapshotManifest;
    } catch {
      return null;
    }
  }

  /** The manifest's modification time (ms), or 0: a cheap test of whether another process wrote a snapshot. */
  manifestStamp(): number {
    try {
      return statSync(join(this.dir, MANIFEST)).mtimeMs;
    } catch {
      return 0;
    }
  }

  graphPath(file: string): string {
    return join(this.dir, `${file}.usearch`);
  }

  /** A new file name for a partition's snapshot at `position`. */
  fileFor(name: string, position: number): string {
    return `p-${createHash('sha256').update(name).digest('hex').slice(0, 16)}-${position}-${process.pid}`;
  }

  readMetadata(file: string): BaseMetadata {
    const buffer = readFileSync(join(this.dir, `${file}.meta`));
    const count = buffer.readUInt32LE(0);
    const column = (n: number): Float64Array => {
      const start = 8 + n * count * 8;
      return new Float64Array(
        buffer.buffer.slice(buffer.byteOffset + start, buffer.byteOffset + start + count * 8),
      );
    };
    return new BaseMetadata(column(0), column(1), column(2));
  }

  writeMetadata(file: string, metadata: BaseMetadata): void {
    const header = Buffer.alloc(8);
    header.writeUInt32LE(metadata.length, 0);
    const columns = [metadata.chunkIds, metadata.itemIds, metadata.expiresAtMs].map((column) =>
      Buffer.from(column.buffer, column.byteOffset, column.byteLength),
    );
    this.ensure();
    writeFileSync(join(this.dir, `${file}.meta`), Buffer.concat([header, ...columns]));
  }

  writeManifest(manifest: SnapshotManifest): void {
    this.ensure();
    const aside = join(this.dir, `${MANIFEST}.${process.pid}.tmp`);
    writeFileSync(aside, JSON.stringify(manifest));
    renameSync(aside, join(this.dir, MANIFEST));
  }

  /** Forgets the snapshot (a reset read model: the saved partitions reflect events it no longer holds). */
  dropManifest(): void {
    try {
      unlinkSync(join(this.dir, MANIFEST));
    } catch {
      // already gone
    }
  }

  /** Runs `work` holding the compaction lock; returns false (without running it) when another process holds it. */
  withLock(work: () => void): boolean {
    this.ensure();
    const path = join(this.dir, LOCK);
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch {
      try {
        if (Date.now() - statSync(path).mtimeMs < LOCK_STALE_MS) return false;
        unlinkSync(path);
        fd = openSync(path, 'wx');
      } catch {
        return false;
      }
    }
    try {
      work();
      return true;
    } finally {
      closeSync(fd);
      unlinkSync(path);
    }
  }

  /** Deletes partition files the current manifest does not name, once older than a minute. */
  sweep(): void {
    const live = new Set(Object.values(this.readManifest()?.partitions ?? {}).map((p) => p.file));
    for (const name of readdirSync(this.dir)) {
      const match = /^(p-.+)\.(usearch|meta)$/.exec(name);
      if (!match || live.has(match[1])) continue;
      const path = join(this.dir, name);
      try {
        if (Date.now() - statSync(path).mtimeMs > SWEEP_AFTER_MS) unlinkSync(path);
      } catch {
        // swept by another process
      }
    }
  }

  private ensure(): void {
    mkdirSync(this.dir, { recursive: true });
  }
}
