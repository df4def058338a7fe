/**
 * Selection of a query's best matches from its score sums (bm25.ts): a bounded heap pass over the document
 * numbers or the candidates, ranked by score descending, then document number.
 */

/**
 * A bounded heap of (score, document) pairs whose root is the worst kept: scores are held beside the document
 * numbers, so a comparison never reads the organization-sized sums array (random reads that missed the CPU cache
 * once a limit-100 memory search kept 1,000 entries).
 */
class WorstFirstHeap {
  readonly scores: Float64Array;
  readonly docs: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.scores = new Float64Array(capacity);
    this.docs = new Int32Array(capacity);
  }

  /** Adds an entry (the heap is not full). */
  push(score: number, doc: number): void {
    const { scores, docs } = this;
    let j = this.size++;
    while (j > 0) {
      const parent = (j - 1) >> 1;
      const ps = scores[parent];
      // Stop once the parent is at least as bad: a lower score, or the same score and a higher number.
      if (ps < score || (ps === score && docs[parent] > doc)) break;
      scores[j] = ps;
      docs[j] = docs[parent];
      j = parent;
    }
    scores[j] = score;
    docs[j] = doc;
  }

  /** Replaces the root (the worst) by an entry and restores the order. */
  replaceRoot(score: number, doc: number): void {
    const { scores, docs, size } = this;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) break;
      let child = left;
      let cs = scores[left];
      let cd = docs[left];
      const right = left + 1;
      if (right < size) {
        const rs = scores[right];
        const rd = docs[right];
        if (rs < cs || (rs === cs && rd > cd)) {
          child = right;
          cs = rs;
          cd = rd;
        }
      }
      // The entry stays here once the worse child is no worse than it.
      if (!(cs < score || (cs === score && cd > doc))) break;
      scores[i] = cs;
      docs[i] = cd;
      i = child;
    }
    scores[i] = score;
    docs[i] = doc;
  }

  /** Empties the heap, best first. */
  drain(): number[] {
    const result = new Array<number>(this.size);
    while (this.size > 0) {
      const n = this.size - 1;
      result[n] = this.docs[0];
      const lastScore = this.scores[n];
      const lastDoc = this.docs[n];
      this.size = n;
      if (n > 0) this.replaceRoot(lastScore, lastDoc);
    }
    return result;
  }
}

/**
 * The `k` best matching documents of `sums[0..size)` (or of the candidates) ranked after (lastScore, lastDoc), best first: one pass
 * with a size-k heap whose root is the worst kept. Most documents are turned away by ONE comparison with
 * `floor` (the smallest positive number until the heap is full, then the root's score): with a separate
 * `s <= 0` test the CPU mispredicted that branch for the randomly interleaved zero and non-zero sums, which
 * made the pass about three times slower.
 */
export function selectBest(
  sums: Float64Array,
  candidates: Int32Array | null,
  size: number,
  k: number,
  lastScore: number,
  lastDoc: number,
): number[] {
  // Every document number below `size`, or only the candidates.
  const count = candidates === null ? size : candidates.length;
  const heap = new WorstFirstHeap(Math.min(k, count));
  const capacity = heap.scores.length;
  // The root (the worst kept) once the heap is full.
  let rootDoc = -1;
  let floor = Number.MIN_VALUE;
  for (let n = 0; n < count; n++) {
    const doc = candidates === null ? n : candidates[n];
    const s = sums[doc];
    // Zero (no match) or below the worst kept. Written as !(>=) so that NaN could never be taken either.
    if (!(s >= floor)) continue;
    // Already handed out: ranked at or before the last document of the previous slice.
    if (s > lastScore || (s === lastScore && doc <= lastDoc)) continue;
    if (heap.size < capacity) {
      heap.push(s, doc);
    } else if (s > floor || doc < rootDoc) {
      heap.replaceRoot(s, doc);
    } else continue;
    if (heap.size === capacity) {
      rootDoc = heap.docs[0];
      floor = heap.scores[0];
    }
  }
  return heap.drain();
}
