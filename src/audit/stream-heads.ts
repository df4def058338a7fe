import { createHash } from 'node:crypto';
import type { StreamHead } from '../infrastructure/event-store/hash-chain';

/**
 * Per-stream completeness against an anchor, on any store (the embedded one and EventStoreDB alike): an anchor
 * records, for every stream the log held up to its position, `[stream, last revision, that event's hash, its
 * position]`. Later, the log's heads as of that position must be the same set: a stream gone (deleted, scavenged),
 * shorter, rewritten (another hash or position: re-created), or a stream that appears before the anchor's position.
 */
export type StreamHeadEntry = [stream: string, revision: number, hash: string, position: number];

export interface StreamHeadsBreak {
  reason: 'stream_missing' | 'stream_truncated' | 'stream_rewritten' | 'stream_added' | 'stream_heads_differ';
  /** The first stream (by name) that differs; null when only a digest was anchored. */
  stream: string | null;
  anchored_revision: number | null;
  log_revision: number | null;
}

/** The entries of the log's stream heads, sorted by stream name (code units). */
export function headEntries(heads: ReadonlyMap<string, StreamHead>): StreamHeadEntry[] {
  return [...heads.entries()]
    .map(([stream, head]): StreamHeadEntry => [stream, head.events - 1, head.hash, head.position])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** SHA-256 (hex) over the sorted entries' JSON (strings and safe integers only: one serialization). */
export function headsDigest(entries: StreamHeadEntry[]): string {
  return createHash('sha256').update(JSON.stringify(entries)).digest('hex');
}

/** The first difference between anchored heads (entries, or only their digest) and the log's heads at the anchor. */
export function compareHeads(
  anchored: { stream_heads?: StreamHeadEntry[]; stream_heads_sha256?: string },
  log: ReadonlyMap<string, StreamHead>,
): StreamHeadsBreak | null {
  const entries = headEntries(log);
  if (!anchored.stream_heads) {
    if (anchored.stream_heads_sha256 === undefined || anchored.stream_heads_sha256 === headsDigest(entries))
      return null;
    return { reason: 'stream_heads_differ', stream: null, anchored_revision: null, log_revision: null };
  }
  const sorted = [...anchored.stream_heads].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [stream, revision, hash, position] of sorted) {
    const head = log.get(stream);
    const at = { stream, anchored_revision: revision, log_revision: head ? head.events - 1 : null };
    if (!head) return { ...at, reason: 'stream_missing' };
    if (head.events - 1 < revision) return { ...at, reason: 'stream_truncated' };
    if (head.events - 1 !== revision || head.hash !== hash || head.position !== position)
      return { ...at, reason: 'stream_rewritten' };
  }
  const anchoredNames = new Set(sorted.map(([stream]) => stream));
  const added = entries.find(([stream]) => !anchoredNames.has(stream));
  if (added)
    return { reason: 'stream_added', stream: added[0], anchored_revision: null, log_revision: added[1] };
  return null;
}
