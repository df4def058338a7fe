/**
 * BM25 scoring of the embedded index, with parameters we choose (SQLite FTS5's bm25() fixes k1 = 1.2,
 * b = 0.75). Both adapters use these parameters (Elasticsearch through its index similarity settings).
 *
 * Title and body are scored as one field, BM25F style (Robertson & Zaragoza 2009, "simple BM25F"), with the
 * title weighted `w`: tf = w·tf_title + tf_body, length = w·length_title + length_body, average length over the
 * organization's documents likewise. With w = 1 this is exactly BM25 over the title and body concatenated —
 * Anserini's "flat" BEIR configuration. Per term: idf · tf / (tf + k1 · (1 − b + b · length / avgLength)),
 * idf = ln(1 + (N − df + 0.5) / (df + 0.5)) — Lucene's BM25Similarity (no (k1 + 1) factor, which changes no
 * ranking). N, df and the lengths are the organization's own: one tenant's documents never move another's scores.
 * A term repeated in the query counts that many times (as in Lucene's bag-of-words query).
 */
import { columnOffsets, type PostingBlock } from './postings';

/** Anserini's BEIR regression parameters (Kamphuis et al. 2020; Thakur et al. 2021). */
export const BM25_K1 = 0.9;
export const BM25_B = 0.4;

export interface CollectionStats {
  documents: number;
  titleTokens: number;
  bodyTokens: number;
}

/**
 * Sums one query's term scores per document number. Its buffers are reused from query to query (a query runs
 * synchronously from begin() to matches()), sized by the organization's highest document number.
 */
export class Bm25Accumulator {
  private scores = new Float64Array(1024);
  private seen = new Uint8Array(1024);
  private matched = new Int32Array(1024);
  private matchedCount = 0;
  private titleBoost = 1;
  private avgLength = 1;
  private documents = 0;

  begin(size: number, stats: CollectionStats, titleBoost: number): void {
    if (size > this.scores.length) {
      const capacity = Math.max(size, this.scores.length * 2);
      this.scores = new Float64Array(capacity);
      this.seen = new Uint8Array(capacity);
      this.matched = new Int32Array(capacity);
    }
    this.matchedCount = 0;
    this.titleBoost = titleBoost;
    this.documents = stats.documents;
    const total = titleBoost * stats.titleTokens + stats.bodyTokens;
    this.avgLength = stats.documents > 0 && total > 0 ? total / stats.documents : 1;
  }

  /** Adds one query term, given every block of its posting list, counted `weight` times. */
  addTerm(blocks: readonly PostingBlock[], weight: number): void {
    let df = 0;
    for (const block of blocks) df += block.count;
    if (df === 0) return;
    const n = Math.max(this.documents, df);
    const scale = weight * Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const w = this.titleBoost;
    const c0 = BM25_K1 * (1 - BM25_B);
    const c1 = (BM25_K1 * BM25_B) / this.avgLength;
    const { scores, seen, matched } = this;
    for (const { count, view } of blocks) {
      const at = columnOffsets(count);
      for (let i = 0; i < count; i++) {
        const doc = view.getUint32(4 * i, true);
        const tf = w * view.getUint16(at.titleTf + 2 * i, true) + view.getUint16(at.bodyTf + 2 * i, true);
        if (seen[doc] === 0) {
          seen[doc] = 1;
          matched[this.matchedCount++] = doc;
        }
        if (tf === 0) continue;
        const length =
          w * view.getUint16(at.titleLength + 2 * i, true) + view.getUint32(at.bodyLength + 4 * i, true);
        scores[doc] += (scale * tf) / (tf + c0 + c1 * length);
      }
    }
  }

  /** The matched documents and their scores; resets the buffers for the next query. */
  matches(): RankedMatches {
    const count = this.matchedCount;
    const docNos = this.matched.slice(0, count);
    const scores = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const doc = docNos[i];
      scores[i] = this.scores[doc];
      this.scores[doc] = 0;
      this.seen[doc] = 0;
    }
    this.matchedCount = 0;
    return new RankedMatches(docNos, scores);
  }
}

export interface RankedDoc {
  docNo: number;
  score: number;
}

/**
 * Matches handed out best first (score descending, then document number), a slice at a time. Each slice is a
 * heap selection among the matches ranked after the previous slice (linear in the matches), or a sort of what
 * is left when the slice would take most of it.
 */
export class RankedMatches {
  private taken = 0;
  /** Index of the last match handed out (−1: none yet). */
  private last = -1;

  constructor(
    private readonly docNos: Int32Array,
    private readonly scores: Float64Array,
  ) {}

  get size(): number {
    return this.docNos.length;
  }

  /** The next `n` best (fewer at the end). */
  next(n: number): RankedDoc[] {
    const left = this.size - this.taken;
    if (left <= 0) return [];
    const order = n * 4 < left ? this.best(n) : this.rest().slice(0, n);
    this.taken += order.length;
    if (order.length > 0) this.last = order[order.length - 1];
    return order.map((i) => ({ docNo: this.docNos[i], score: this.scores[i] }));
  }

  private before(a: number, b: number): boolean {
    const sa = this.scores[a];
    const sb = this.scores[b];
    return sa > sb || (sa === sb && this.docNos[a] < this.docNos[b]);
  }

  private remaining(i: number): boolean {
    return this.last < 0 || this.before(this.last, i);
  }

  /** Every match not handed out yet, sorted. */
  private rest(): number[] {
    const rest: number[] = [];
    for (let i = 0; i < this.size; i++) if (this.remaining(i)) rest.push(i);
    return rest.sort((a, b) => (this.before(a, b) ? -1 : 1));
  }

  /** The `k` best matches not handed out yet, best first: a size-k heap whose root is the worst kept. */
  private best(k: number): number[] {
    const heap = new Int32Array(k);
    let size = 0;
    const worse = (a: number, b: number): boolean => this.before(b, a);
    const siftDown = (): void => {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= size) return;
        const child = left + 1 < size && worse(heap[left + 1], heap[left]) ? left + 1 : left;
        if (!worse(heap[child], heap[i])) return;
        [heap[i], heap[child]] = [heap[child], heap[i]];
        i = child;
      }
    };
    for (let i = 0; i < this.size; i++) {
      if (!this.remaining(i)) continue;
      if (size < k) {
        let j = size++;
        heap[j] = i;
        while (j > 0 && worse(heap[j], heap[(j - 1) >> 1])) {
          const parent = (j - 1) >> 1;
          [heap[j], heap[parent]] = [heap[parent], heap[j]];
          j = parent;
        }
      } else if (this.before(i, heap[0])) {
        heap[0] = i;
        siftDown();
      }
    }
    const result = new Array<number>(size);
    for (let n = size - 1; n >= 0; n--) {
      result[n] = heap[0];
      heap[0] = heap[--size];
      siftDown();
    }
    return result;
  }
}
