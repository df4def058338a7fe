/**
 * The bounded heap a query keeps its best matches in (max-score.ts), ranked by score descending, then document
 * number.
 */

/** A bounded heap of (score, document) pairs whose root is the worst kept. */
export class WorstFirstHeap {
  readonly scores: Float64Array;
  readonly docs: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.scores = new Float64Array(capacity);
    this.docs = new Int32Array(capacity);
  }

  /** The worst score kept once full (a match must reach it), the smallest positive number until then. */
  get floor(): number {
    return this.size === this.scores.length ? this.scores[0] : Number.MIN_VALUE;
  }

  /**
   * Keeps (score, doc) if it ranks among the best the heap holds: score descending, then document number. A score
   * under the floor (0, or NaN: written as !(>=)) is turned away.
   */
  offer(score: number, doc: number): void {
    if (!(score >= this.floor)) return;
    if (this.size < this.scores.length) this.push(score, doc);
    else if (score > this.scores[0] || doc < this.docs[0]) this.replaceRoot(score, doc);
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
  drain(): Array<{ docNo: number; score: number }> {
    const result = new Array<{ docNo: number; score: number }>(this.size);
    while (this.size > 0) {
      const n = this.size - 1;
      result[n] = { docNo: this.docs[0], score: this.scores[0] };
      const lastScore = this.scores[n];
      const lastDoc = this.docs[n];
      this.size = n;
      if (n > 0) this.replaceRoot(lastScore, lastDoc);
    }
    return result;
  }
}
