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
  /**
   * The term's number in the TermNumbers (posting-log.ts) whose serial is `numberedBy` (0: none), kept here: no
   * lookup by string per posting. A serial, not the object, so that no cached word keeps an old numbering alive.
   */
  numberedBy: number;
  number: number;
}

const INITIAL_SLOTS = 1 << 14;
/** Ints per slot: the word's hash, its offset in `chars` plus one (0: an empty slot), its length, its index. */
const SLOT = 4;

export class WordCache {
  /**
   * Open addressing, linear probing; a slot holds what a probe compares (hash, length, where the word's characters
   * are), so a probe reads one slot and the word's characters, both from typed arrays: no string object.
   */
  private slots = new Int32Array(SLOT * INITIAL_SLOTS);
  /** The cached words' UTF-16 code units, one after the other. */
  private chars = new Uint16Array(1 << 16);
  private charsUsed = 0;
  /** By word index: the word's entry (null: a stop word). */
  private entries: Array<TermEntry | null> = [];
  private readonly terms = new Map<string, TermEntry>();

  constructor(
    private readonly normalize: (word: string) => string | null,
    private readonly limit: number,
  ) {}

  /** The entry of `text[start, end)` (null: a stop word); `hash` is hashOf() of those code points. */
  lookup(text: string, start: number, end: number, hash: number): TermEntry | null {
    const { slots, chars } = this;
    const mask = slots.length / SLOT - 1;
    const length = end - start;
    let slot = hash & mask;
    for (;;) {
      const at = slot * SLOT;
      const offset = slots[at + 1];
      if (offset === 0) break;
      if (slots[at] === hash && slots[at + 2] === length && sameChars(chars, offset - 1, text, start, length))
        return this.entries[slots[at + 3]];
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
          (entry = { term, stamp: 0, titleCount: 0, bodyCount: 0, numberedBy: 0, number: 0 }),
        );
    }
    if (this.charsUsed + length > this.chars.length) this.growChars(this.charsUsed + length);
    for (let i = 0; i < length; i++) this.chars[this.charsUsed + i] = text.charCodeAt(start + i);
    const at = slot * SLOT;
    slots[at] = hash;
    slots[at + 1] = this.charsUsed + 1;
    slots[at + 2] = length;
    slots[at + 3] = this.entries.length;
    this.charsUsed += length;
    this.entries.push(entry);
    if (this.entries.length * 2 > mask + 1) this.grow();
    return entry;
  }

  /** Empties a full cache. Call only between two texts: one text's tally must never split over two entries. */
  trim(): void {
    if (this.entries.length < this.limit) return;
    this.slots = new Int32Array(SLOT * INITIAL_SLOTS);
    this.chars = new Uint16Array(1 << 16);
    this.charsUsed = 0;
    this.entries = [];
    this.terms.clear();
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = slots.length / SLOT - 1;
    for (let from = 0; from < old.length; from += SLOT) {
      if (old[from + 1] === 0) continue;
      let slot = old[from] & mask;
      while (slots[slot * SLOT + 1] !== 0) slot = (slot + 1) & mask;
      slots.set(old.subarray(from, from + SLOT), slot * SLOT);
    }
    this.slots = slots;
  }

  private growChars(needed: number): void {
    let size = this.chars.length * 2;
    while (size < needed) size *= 2;
    const chars = new Uint16Array(size);
    chars.set(this.chars.subarray(0, this.charsUsed));
    this.chars = chars;
  }
}

function sameChars(chars: Uint16Array, offset: number, text: string, start: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (chars[offset + i] !== text.charCodeAt(start + i)) return false;
  return true;
}

/** One step of the word hash (FNV-1a over code points), as the scanner feeds it. */
export function hashStep(hash: number, codePoint: number): number {
  return Math.imul(hash ^ codePoint, 0x01000193);
}

export const HASH_SEED = 0x811c9dc5 | 0;
