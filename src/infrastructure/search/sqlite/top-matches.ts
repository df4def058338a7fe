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

/** What ranking keeps its best matches in: WorstFirstHeap, or CollapsingHeap for one match per value. */
export interface MatchHeap {
  readonly floor: number;
  offer(score: number, doc: number): void;
  drain(): Array<{ docNo: number; score: number }>;
}

/** Whether (s1, d1) ranks before (s2, d2): score descending, then document number. */
function before(s1: number, d1: number, s2: number, d2: number): boolean {
  return s1 > s2 || (s1 === s2 && d1 < d2);
}

/**
 * A bounded heap of the best match per collapse value (SearchQuery.collapse): `keys[doc]` is a document's value
 * (-1: none, the document is its own). A value's entry is its best document offered; a worse document of a value
 * already kept is turned away, a better one takes its entry. Documents in `excluded`, and those of a value in
 * `excludedKeys`, are turned away. The root is the worst kept, so `floor` bounds every value kept (a match under
 * it can neither enter nor improve any).
 */
export class CollapsingHeap implements MatchHeap {
  private readonly scores: Float64Array;
  private readonly docs: Int32Array;
  private readonly values: Float64Array;
  /** Where each kept value's entry is (a document without a value is keyed by -(doc + 1)). */
  private readonly at = new Map<number, number>();
  private size = 0;

  constructor(
    capacity: number,
    private readonly keys: Float64Array,
    private readonly excluded: ReadonlySet<number> = new Set(),
    private readonly excludedKeys?: ReadonlySet<number>,
  ) {
    this.scores = new Float64Array(capacity);
    this.docs = new Int32Array(capacity);
    this.values = new Float64Array(capacity);
  }

  get floor(): number {
    return this.size === this.scores.length ? this.scores[0] : Number.MIN_VALUE;
  }

  offer(score: number, doc: number): void {
    if (!(score >= this.floor) || this.excluded.has(doc)) return;
    const key = this.keys[doc];
    if (key >= 0 && this.excludedKeys?.has(key) === true) return;
    const value = key >= 0 ? key : -(doc + 1);
    const i = this.at.get(value);
    if (i !== undefined) {
      // Better than its value's entry: the entry improves, so it moves away from the root.
      if (before(score, doc, this.scores[i], this.docs[i])) this.siftDown(i, score, doc, value);
      return;
    }
    if (this.size < this.scores.length) this.siftUp(this.size++, score, doc, value);
    else if (before(score, doc, this.scores[0], this.docs[0])) {
      this.at.delete(this.values[0]);
      this.siftDown(0, score, doc, value);
    }
  }

  drain(): Array<{ docNo: number; score: number }> {
    const result = new Array<{ docNo: number; score: number }>(this.size);
    while (this.size > 0) {
      const n = this.size - 1;
      result[n] = { docNo: this.docs[0], score: this.scores[0] };
      this.at.delete(this.values[0]);
      this.size = n;
      if (n > 0) this.siftDown(0, this.scores[n], this.docs[n], this.values[n]);
    }
    return result;
  }

  private put(i: number, score: number, doc: number, value: number): void {
    this.scores[i] = score;
    this.docs[i] = doc;
    this.values[i] = value;
    this.at.set(value, i);
  }

  /** Places an entry at slot i or above it (towards the root), below the first parent that is worse. */
  private siftUp(i: number, score: number, doc: number, value: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      // A better parent moves down.
      if (before(this.scores[parent], this.docs[parent], score, doc)) {
        this.put(i, this.scores[parent], this.docs[parent], this.values[parent]);
        i = parent;
      } else break;
    }
    this.put(i, score, doc, value);
  }

  /** Places an entry at slot i or below it, where no child is worse. */
  private siftDown(i: number, score: number, doc: number, value: number): void {
    const size = this.size;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) break;
      let child = left;
      const right = left + 1;
      if (right < size && before(this.scores[left], this.docs[left], this.scores[right], this.docs[right]))
        child = right;
      if (!before(score, doc, this.scores[child], this.docs[child])) break;
      this.put(i, this.scores[child], this.docs[child], this.values[child]);
      i = child;
    }
    this.put(i, score, doc, value);
  }
}
