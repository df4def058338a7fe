/**
 * Terms' postings as stored (TermBlocks, term-blocks.ts: compressed rows and their block index) kept in memory
 * between queries, least recently used first out, bounded in bytes. An entry is one term of one organization.
 *
 * A term's blocks are valid for one `generation` of its organization: a digest of its document rows
 * (generation-hash.ts), which every write that changes any of them changes in the same transaction
 * (document-writer.ts), and a query reads that row in its read transaction before it asks the cache. So a process
 * never scores with postings older than its snapshot, whichever process wrote them (after a reset, equal rows
 * have the same generation and the same postings again). The organization's statistics (which the scores depend on) change only with such
 * writes, so they are fixed within a generation as well.
 */
import type { TermBlocks } from './term-blocks';

/**
 * Default budget (CAIRN_SEARCH_CACHE_MB): the 546 terms of the scale bench's 200 queries at 1M chunks, with the
 * kept scores of the small ones, did not fit in 128 MiB (a cyclic pass over them missed every time: least
 * recently used is the worst order for it) and fit in 256.
 */
export const POSTING_CACHE_BYTES = 256 * 1024 * 1024;
/** A posting list bigger than this share of the budget is never kept (it would evict everything else). */
const LARGEST_SHARE = 0.25;
/** Bookkeeping per entry (key, map slots, the row buffers' objects), counted against the budget. */
const ENTRY_OVERHEAD = 256;

interface Entry {
  blocks: TermBlocks;
  bytes: number;
}

export class PostingCache {
  private readonly entries = new Map<string, Entry>();
  /** Generation each organization's entries belong to. */
  private readonly generations = new Map<number, string>();
  private bytes = 0;

  constructor(private readonly budget = POSTING_CACHE_BYTES) {}

  get size(): number {
    return this.entries.size;
  }

  /** Cached postings of `term`, or undefined. Forgets the organization's entries when its generation moved. */
  get(orgKey: number, generation: string, term: string): TermBlocks | undefined {
    if (this.generations.get(orgKey) !== generation) {
      this.forget(orgKey);
      this.generations.set(orgKey, generation);
      return undefined;
    }
    const key = `${orgKey}\u0000${term}`;
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Map order is insertion order: re-inserting marks it most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.blocks;
  }

  /** Keeps `blocks` (read under `generation`, which get() has just recorded); set again once they grew, counted anew. */
  set(orgKey: number, generation: string, term: string, blocks: TermBlocks): void {
    if (this.generations.get(orgKey) !== generation) return;
    const bytes = ENTRY_OVERHEAD + 2 * term.length + blocks.bytes + 64 * blocks.rows.length;
    const key = `${orgKey}\u0000${term}`;
    // An entry set again (grown) replaces its earlier count, or leaves when it no longer fits.
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.bytes -= previous.bytes;
      this.entries.delete(key);
    }
    if (bytes > this.budget * LARGEST_SHARE) return;
    this.entries.set(key, { blocks, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  clear(): void {
    this.entries.clear();
    this.generations.clear();
    this.bytes = 0;
  }

  private forget(orgKey: number): void {
    const prefix = `${orgKey}\u0000`;
    for (const [key, entry] of this.entries) {
      if (!key.startsWith(prefix)) continue;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
  }
}
