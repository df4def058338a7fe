/**
 * Scored posting lists (TermScores, bm25.ts) kept in memory between queries, least recently used first out,
 * bounded in bytes. An entry is one term of one organization under one title weight.
 *
 * A term's blocks are valid for one `generation` of its organization: a digest of its document rows
 * (generation-hash.ts), which every write that changes any of them changes in the same transaction
 * (document-writer.ts), and a query reads that row in its read transaction before it asks the cache. So a process
 * never scores with postings older than its snapshot, whichever process wrote them (after a reset, equal rows
 * have the same generation and the same postings again). The organization's statistics (which the scores depend on) change only with such
 * writes, so they are fixed within a generation as well.
 */
import type { TermScores } from './bm25';

/** Default budget: the common terms of a few hundred thousand chunks. */
export const POSTING_CACHE_BYTES = 64 * 1024 * 1024;
/** A posting list bigger than this share of the budget is never kept (it would evict everything else). */
const LARGEST_SHARE = 0.25;
/** Bookkeeping per entry (key, map slots, block objects), counted against the budget. */
const ENTRY_OVERHEAD = 128;

interface Entry {
  scores: TermScores;
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

  /** Cached scores of `term`, or undefined. Forgets the organization's entries when its generation moved. */
  get(orgKey: number, generation: string, titleBoost: number, term: string): TermScores | undefined {
    if (this.generations.get(orgKey) !== generation) {
      this.forget(orgKey);
      this.generations.set(orgKey, generation);
      return undefined;
    }
    const key = `${orgKey}\u0000${titleBoost}\u0000${term}`;
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Map order is insertion order: re-inserting marks it most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.scores;
  }

  /** Keeps `scores` (computed under `generation`, which get() has just recorded). */
  set(orgKey: number, generation: string, titleBoost: number, term: string, scores: TermScores): void {
    if (this.generations.get(orgKey) !== generation) return;
    const bytes = ENTRY_OVERHEAD + 2 * term.length + scores.docs.byteLength + scores.scores.byteLength;
    if (bytes > this.budget * LARGEST_SHARE) return;
    const key = `${orgKey}\u0000${titleBoost}\u0000${term}`;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.bytes -= previous.bytes;
      this.entries.delete(key);
    }
    this.entries.set(key, { scores, bytes });
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
