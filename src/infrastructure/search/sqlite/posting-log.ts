/**
 * Deferred postings of new documents (document-writer.ts), held compactly until their partitions are stored: one
 * entry per (term, document) in typed arrays — a term number, the document number and both term frequencies —
 * 12 bytes, outside the JavaScript heap. Held as one number array per term instead (three numbers a posting, and
 * every array's growth leaving a copy behind), a rebuild's deferred postings raised its peak heap by ~280 MB and
 * its garbage collection by about a second at 100k chunks.
 *
 * Entries are appended in document order (deferred batches only add new documents, numbered in order), so the
 * postings of the documents below a number are a prefix of the log: take() sorts that prefix by term (a counting
 * sort, stable, so each term's postings stay in document order) and keeps the rest.
 */
import type { TermEntry } from './word-cache';
import { FIELDS_PER_CHANGE, groupOf, partitionOf, PARTITION_SIZE, type TermChanges } from './postings';

const U16_MAX = 0xffff;
const INITIAL_ENTRIES = 1 << 12;

let serials = 0;

/** Term strings numbered in the order first seen; shared by the logs of one writer. */
export class TermNumbers {
  private readonly numbers = new Map<string, number>();
  readonly terms: string[] = [];
  /** This numbering's serial (never 0), which analyzer entries remember their number by. */
  private readonly serial = ++serials;

  numberOf(term: string): number {
    let n = this.numbers.get(term);
    if (n === undefined) {
      n = this.terms.length;
      this.numbers.set(term, n);
      this.terms.push(term);
    }
    return n;
  }

  /** numberOf() an analyzed term, remembered on its (shared) entry. */
  numberOfEntry(entry: Readonly<TermEntry>): number {
    if (entry.numberedBy === this.serial) return entry.number;
    const n = this.numberOf(entry.term);
    const writable = entry as TermEntry;
    writable.numberedBy = this.serial;
    writable.number = n;
    return n;
  }

  get size(): number {
    return this.terms.length;
  }
}

/** One (term, partition) row's postings as take() hands them out: views valid until the next row. */
export interface TakenRow {
  group: number;
  term: string;
  part: number;
  count: number;
  docs: Int32Array;
  titleTf: Uint16Array;
  bodyTf: Uint16Array;
}

export class PostingLog {
  private termOf = new Int32Array(INITIAL_ENTRIES);
  private docOf = new Int32Array(INITIAL_ENTRIES);
  /** Title tf in the high 16 bits, body tf in the low 16 (each capped at 65,535, as stored). */
  private tfsOf = new Uint32Array(INITIAL_ENTRIES);
  length = 0;

  constructor(readonly numbers: TermNumbers) {}

  /** Appends one posting; `doc` must not be below the last one appended. */
  add(term: number, doc: number, titleTf: number, bodyTf: number): void {
    if (this.length === this.docOf.length) this.grow(this.length + 1);
    const at = this.length++;
    this.termOf[at] = term;
    this.docOf[at] = doc;
    this.tfsOf[at] = ((Math.min(titleTf, U16_MAX) << 16) | Math.min(bodyTf, U16_MAX)) >>> 0;
  }

  /** Appends every entry of `other` (whose documents all follow this log's). */
  append(other: PostingLog): void {
    if (other.length === 0) return;
    if (this.length + other.length > this.docOf.length) this.grow(this.length + other.length);
    this.termOf.set(other.termOf.subarray(0, other.length), this.length);
    this.docOf.set(other.docOf.subarray(0, other.length), this.length);
    this.tfsOf.set(other.tfsOf.subarray(0, other.length), this.length);
    this.length += other.length;
  }

  /**
   * Removes the postings of documents below `upTo` and calls `visit` with them, one (term, partition) row at a
   * time in the postings table's key order: by group, then term, then partition.
   */
  take(upTo: number, visit: (row: TakenRow) => void): void {
    const cut = this.firstAtOrAbove(upTo);
    if (cut === 0) return;
    const termCount = this.numbers.size;
    // Counting sort of the prefix by term number: starts[t] .. starts[t + 1] are term t's entries.
    const starts = new Int32Array(termCount + 1);
    for (let i = 0; i < cut; i++) starts[this.termOf[i] + 1]++;
    for (let t = 0; t < termCount; t++) starts[t + 1] += starts[t];
    // Scattered into term order at once (reading them back through an index of entries cost a cache miss each).
    const next = starts.slice(0, termCount);
    const sortedDocs = new Int32Array(cut);
    const sortedTfs = new Uint32Array(cut);
    for (let i = 0; i < cut; i++) {
      const at = next[this.termOf[i]]++;
      sortedDocs[at] = this.docOf[i];
      sortedTfs[at] = this.tfsOf[i];
    }

    const present: number[] = [];
    for (let t = 0; t < termCount; t++) if (starts[t + 1] > starts[t]) present.push(t);
    const { terms } = this.numbers;
    present.sort((a, b) => (terms[a] < terms[b] ? -1 : terms[a] > terms[b] ? 1 : 0));

    const docs = new Int32Array(PARTITION_SIZE);
    const titleTf = new Uint16Array(PARTITION_SIZE);
    const bodyTf = new Uint16Array(PARTITION_SIZE);
    // Each term's entries are in document order: a cursor per term walks them group by group.
    const cursor = starts.slice(0, termCount);
    const firstGroup = groupOf(partitionOf(this.docOf[0]));
    const lastGroup = groupOf(partitionOf(this.docOf[cut - 1]));
    for (let group = firstGroup; group <= lastGroup; group++) {
      for (const t of present) {
        const end = starts[t + 1];
        let at = cursor[t];
        while (at < end) {
          const part = partitionOf(sortedDocs[at]);
          if (groupOf(part) !== group) break;
          let count = 0;
          while (at < end) {
            const doc = sortedDocs[at];
            if (partitionOf(doc) !== part) break;
            const tfs = sortedTfs[at];
            docs[count] = doc;
            titleTf[count] = tfs >>> 16;
            bodyTf[count] = tfs & U16_MAX;
            count++;
            at++;
          }
          visit({ group, term: terms[t], part, count, docs, titleTf, bodyTf });
        }
        cursor[t] = at;
      }
    }
    this.termOf.copyWithin(0, cut, this.length);
    this.docOf.copyWithin(0, cut, this.length);
    this.tfsOf.copyWithin(0, cut, this.length);
    this.length -= cut;
  }

  /** A row's postings as flat change triples (mergePostings() takes them). */
  static asChanges(row: TakenRow): TermChanges {
    const changes: TermChanges = new Array<number>(row.count * FIELDS_PER_CHANGE);
    for (let i = 0, at = 0; i < row.count; i++, at += FIELDS_PER_CHANGE) {
      changes[at] = row.docs[i];
      changes[at + 1] = row.titleTf[i];
      changes[at + 2] = row.bodyTf[i];
    }
    return changes;
  }

  /** The index of the first entry whose document is `docNo` or above (entries are in document order). */
  private firstAtOrAbove(docNo: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.docOf[mid] < docNo) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private grow(needed: number): void {
    let size = this.docOf.length * 2;
    while (size < needed) size *= 2;
    const termOf = new Int32Array(size);
    const docOf = new Int32Array(size);
    const tfsOf = new Uint32Array(size);
    termOf.set(this.termOf.subarray(0, this.length));
    docOf.set(this.docOf.subarray(0, this.length));
    tfsOf.set(this.tfsOf.subarray(0, this.length));
    this.termOf = termOf;
    this.docOf = docOf;
    this.tfsOf = tfsOf;
  }
}
