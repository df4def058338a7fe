/**
 * The analyzer's cache: surface word → its term entry, looked up straight from the analyzed text by offsets and
 * a hash computed while scanning, so a known word costs no substring and no string hashing (open addressing,
 * linear probing). Indexing analyzes every word of every document, and most words were seen before.
 */

/** One indexed term, shared by every surface form that analyzes to it; the counts tally one document. */
export interface TermEntry {
  term: string;
  stamp: number;
  titleCount: number;
  bodyCount: number;
  /** The term's number in `numberedBy` (posting-log.ts TermNumbers), kept here: no lookup by string per posting. */
  numberedBy: object | null;
  number: number;
}

const INITIAL_SLOTS = 1 << 14;

export class WordCache {
  private slots = new Int32Array(INITIAL_SLOTS).fill(-1);
  private hashes: number[] = [];
  private words: string[] = [];
  private entries: Array<TermEntry | null> = [];
  private readonly terms = new Map<string, TermEntry>();

  constructor(
    private readonly normalize: (word: string) => string | null,
    private readonly limit: number,
  ) {}

  /** The entry of `text[start, end)` (null: a stop word); `hash` is hashOf() of those code points. */
  lookup(text: string, start: number, end: number, hash: number): TermEntry | null {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (;;) {
      const index = this.slots[slot];
      if (index < 0) break;
      if (this.hashes[index] === hash && sameWord(this.words[index], text, start, end))
        return this.entries[index];
      slot = (slot + 1) & mask;
    }
    const word = text.slice(start, end);
    const term = this.normalize(word);
    let entry: TermEntry | null = null;
    if (term !== null) {
      entry = this.terms.get(term) ?? null;
      if (entry === null)
        this.terms.set(
          term,
          (entry = { term, stamp: 0, titleCount: 0, bodyCount: 0, numberedBy: null, number: 0 }),
        );
    }
    this.slots[slot] = this.words.length;
    this.words.push(word);
    this.hashes.push(hash);
    this.entries.push(entry);
    if (this.words.length * 2 > this.slots.length) this.grow();
    return entry;
  }

  /** Empties a full cache. Call only between two texts: one text's tally must never split over two entries. */
  trim(): void {
    if (this.words.length < this.limit) return;
    this.slots = new Int32Array(INITIAL_SLOTS).fill(-1);
    this.hashes = [];
    this.words = [];
    this.entries = [];
    this.terms.clear();
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    this.hashes.forEach((hash, index) => {
      let slot = hash & mask;
      while (slots[slot] >= 0) slot = (slot + 1) & mask;
      slots[slot] = index;
    });
    this.slots = slots;
  }
}

function sameWord(word: string, text: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

/** One step of the word hash (FNV-1a over code points), as the scanner feeds it. */
export function hashStep(hash: number, codePoint: number): number {
  return Math.imul(hash ^ codePoint, 0x01000193);
}

export const HASH_SEED = 0x811c9dc5 | 0;
