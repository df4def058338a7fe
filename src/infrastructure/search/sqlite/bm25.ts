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
 *
 * A term's postings are turned once into (document number, term score) pairs — TermScores, which depend only
 * on the organization's statistics and the title weight, so they are cached with the postings of one index
 * generation — and a query adds them up in a dense array indexed by document number.
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

/** One term's documents (ascending) and the term's BM25 score in each, before the query's weight. */
export interface TermScores {
  docs: Int32Array;
  scores: Float64Array;
}

/** Scores every posting of a term (all its blocks, in document order). */
export function termScores(
  blocks: readonly PostingBlock[],
  stats: CollectionStats,
  titleBoost: number,
): TermScores {
  let df = 0;
  for (const block of blocks) df += block.count;
  const docs = new Int32Array(df);
  const scores = new Float64Array(df);
  if (df === 0) return { docs, scores };
  const n = Math.max(stats.documents, df);
  const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const w = titleBoost;
  const total = w * stats.titleTokens + stats.bodyTokens;
  const avgLength = stats.documents > 0 && total > 0 ? total / stats.documents : 1;
  const c0 = BM25_K1 * (1 - BM25_B);
  const c1 = (BM25_K1 * BM25_B) / avgLength;
  let k = 0;
  for (const { count, view } of blocks) {
    const at = columnOffsets(count);
    for (let i = 0; i < count; i++, k++) {
      docs[k] = view.getUint32(4 * i, true);
      const tf = w * view.getUint16(at.titleTf + 2 * i, true) + view.getUint16(at.bodyTf + 2 * i, true);
      const length =
        w * view.getUint16(at.titleLength + 2 * i, true) + view.getUint32(at.bodyLength + 4 * i, true);
      scores[k] = tf === 0 ? 0 : (idf * tf) / (tf + c0 + c1 * length);
    }
  }
  return { docs, scores };
}

/**
 * Sums one query's term scores per document number, in a dense array reused from query to query (a query runs
 * synchronously from begin() to end()), sized by the organization's highest document number. A document
 * matches when its sum is positive (every posting has tf > 0 and idf > 0).
 */
export class Bm25Accumulator {
  private scores = new Float64Array(1024);
  private size = 0;

  begin(size: number): void {
    if (size > this.scores.length) this.scores = new Float64Array(Math.max(size, this.scores.length * 2));
    this.size = size;
  }

  /** Adds one query term, counted `weight` times. */
  add(term: TermScores, weight: number): void {
    const { docs, scores } = term;
    const sums = this.scores;
    for (let i = 0; i < docs.length; i++) sums[docs[i]] += weight * scores[i];
  }

  /** The matches, best first, a slice at a time; valid until end(). */
  ranked(): RankedMatches {
    return new RankedMatches(this.scores, this.size);
  }

  /** Clears the sums for the next query. */
  end(): void {
    this.scores.fill(0, 0, this.size);
    this.size = 0;
  }
}

export interface RankedDoc {
  docNo: number;
  score: number;
}

/**
 * Matches handed out best first (score descending, then document number), a slice at a time. Each slice is a
 * heap selection over the documents ranked after the previous slice (one pass over the dense sums).
 */
export class RankedMatches {
  /** The last document handed out (−1: none yet) and its score. */
  private lastDoc = -1;
  private lastScore = Infinity;

  constructor(
    private readonly sums: Float64Array,
    private readonly size: number,
  ) {}

  /** The next `n` best (fewer at the end). */
  next(n: number): RankedDoc[] {
    if (n <= 0) return [];
    const order = selectBest(this.sums, this.size, n, this.lastScore, this.lastDoc);
    if (order.length > 0) {
      this.lastDoc = order[order.length - 1];
      this.lastScore = this.sums[this.lastDoc];
    }
    return order.map((docNo) => ({ docNo, score: this.sums[docNo] }));
  }
}

/** Document a ranks after document b: lower score, or the same score and a higher number. */
function worse(sums: Float64Array, a: number, b: number): boolean {
  return sums[a] < sums[b] || (sums[a] === sums[b] && a > b);
}

/** Restores the heap (worst at the root) of `size` entries after its root was replaced. */
function siftDown(sums: Float64Array, heap: Int32Array, size: number): void {
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= size) return;
    const child = left + 1 < size && worse(sums, heap[left + 1], heap[left]) ? left + 1 : left;
    if (!worse(sums, heap[child], heap[i])) return;
    const swap = heap[i];
    heap[i] = heap[child];
    heap[child] = swap;
    i = child;
  }
}

/** Adds `doc` as the heap's entry number `at` (the heap grows by one). */
function siftUp(sums: Float64Array, heap: Int32Array, at: number, doc: number): void {
  let j = at;
  heap[j] = doc;
  while (j > 0) {
    const parent = (j - 1) >> 1;
    if (!worse(sums, heap[j], heap[parent])) return;
    heap[j] = heap[parent];
    heap[parent] = doc;
    j = parent;
  }
}

/**
 * The `k` best matching documents of `sums[0..size)` ranked after (lastScore, lastDoc), best first: one pass
 * with a size-k heap whose root is the worst kept. Plain locals and module functions (no closures) keep the
 * pass tight: it visits every document number of the organization. Most documents are turned away by ONE
 * comparison with `floor` (the smallest positive number until the heap is full, then the root's score): with
 * a separate `s <= 0` test the CPU mispredicted that branch for the randomly interleaved zero and non-zero sums,
 * which made the pass about three times slower.
 */
function selectBest(
  sums: Float64Array,
  size: number,
  k: number,
  lastScore: number,
  lastDoc: number,
): number[] {
  const heap = new Int32Array(Math.min(k, size));
  const capacity = heap.length;
  let count = 0;
  // The root (the worst kept) once the heap is full.
  let rootDoc = -1;
  let floor = Number.MIN_VALUE;
  for (let doc = 0; doc < size; doc++) {
    const s = sums[doc];
    // Zero (no match) or below the worst kept. Written as !(>=) so that NaN could never be taken either.
    if (!(s >= floor)) continue;
    // Already handed out: ranked at or before the last document of the previous slice.
    if (s > lastScore || (s === lastScore && doc <= lastDoc)) continue;
    if (count < capacity) {
      siftUp(sums, heap, count++, doc);
    } else if (s > floor || doc < rootDoc) {
      heap[0] = doc;
      siftDown(sums, heap, count);
    } else continue;
    if (count === capacity) {
      rootDoc = heap[0];
      floor = sums[rootDoc];
    }
  }
  const result = new Array<number>(count);
  for (let n = count - 1; n >= 0; n--) {
    result[n] = heap[0];
    heap[0] = heap[--count];
    siftDown(sums, heap, count);
  }
  return result;
}
