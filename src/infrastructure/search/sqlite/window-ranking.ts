/**
 * MaxScore a window of documents at a time (the shape of Lucene's MaxScoreBulkScorer): the document range is taken
 * one partition (PARTITION_SIZE document numbers: a term's blocks never cross one) at a time. In each window every
 * term is bounded by the highest of its blocks there (block-maxima.ts, or the headers); terms whose bounds together
 * stay under θ are non-essential for the window. A window whose terms are all non-essential is skipped without
 * decoding anything. Otherwise the essential terms' postings are added up term at a time into window-sized arrays
 * (which stay in the processor's cache), and each matched document, in increasing order, whose essential sum and
 * the non-essential bounds can reach θ gets the non-essential terms looked up (each bounded by its block first),
 * then its score: its terms' scores added in query order, the same floating-point number as a sum over every
 * posting (max-score.ts).
 *
 * Against the document-at-a-time loop (max-score.ts, still used for more than WINDOW_TERMS terms), the work per
 * document is a few array reads instead of a cursor step per term, and whole windows are bounded at once: at 1M
 * synthetic chunks, in one process alternating with it, a 10-item ask took 2.9 against 3.6 ms and a 100-item ask
 * 5.3 against 6.0, the same results (docs/benchmarks.md, "Dense, MaxScore or windows").
 */
import { bm25, type TermWeighting } from './bm25';
import type { DocumentLengths } from './document-lengths';
import { PARTITION_SIZE } from './postings';
import { type BlockCursor, END } from './term-blocks';
import type { MatchHeap } from './top-matches';

/** Document numbers per window: a partition, so that each block lies in one window. */
export const WINDOW = PARTITION_SIZE;

/** Up to this many terms a query is ranked window by window (each term keeps a window of scores: 32 KiB). */
export const WINDOW_TERMS = 16;

/** A bound times this is compared with θ (max-score.ts SLACK). */
const SLACK = 1 + 1e-9;

/** Per term, its scores in the window (term j's at j · WINDOW + d); sums of the essential ones; matched bitmap. */
const termScores = new Float64Array(WINDOW_TERMS * WINDOW);
const essentialSums = new Float64Array(WINDOW);
const matched = new Int32Array(WINDOW / 32);

/** What windowed ranking reads of a MaxScoreRanker. */
export interface WindowRanking {
  cursors: readonly BlockCursor[];
  weights: Float64Array;
  weightings: readonly TermWeighting[];
  /** The term at each position of the query. */
  byQuery: Int32Array;
  /** The highest score (query weight 1) term j can have in its block b. */
  blockHighest(j: number, b: number): number;
  lengths: DocumentLengths;
  /** The title weight. */
  w: number;
  /** Documents never scored (null: none). */
  leftOut: ((doc: number) => boolean) | null;
  /** Whether a match was handed out by an earlier slice (max-score.ts RankedMatches). */
  handedOut(score: number, doc: number): boolean;
}

/** Offers every match that can rank to `heap`; returns how many documents had their non-essential terms looked up. */
export function rankWindows(r: WindowRanking, heap: MatchHeap): number {
  const { cursors, weights } = r;
  const n = cursors.length;
  if (n > WINDOW_TERMS) throw new RangeError(`windowed ranking takes at most ${WINDOW_TERMS} terms`);
  for (const cursor of cursors) cursor.reset();
  const bounds = new Float64Array(n);
  const order = Int32Array.from({ length: n }, (_, j) => j);
  /** below[q]: the bounds of order[0..q-1] together. */
  const below = new Float64Array(n + 1);
  let scored = 0;
  for (let next = firstDoc(cursors); next !== END; next = firstDoc(cursors)) {
    const start = next - (next % WINDOW);
    const end = start + WINDOW;
    for (let j = 0; j < n; j++) {
      cursors[j].skipTo(start);
      bounds[j] = weights[j] * windowHighest(r, j, end);
    }
    sortByBound(order, bounds);
    for (let q = 0; q < n; q++) below[q + 1] = below[q] + bounds[order[q]];
    const theta = heap.floor;
    // Non-essential: order[0..m-1], whose bounds together stay under θ.
    let m = 0;
    while (m < n && below[m + 1] * SLACK < theta) m++;
    if (m < n) {
      // A term without a block in the window has no posting in it.
      for (let q = m; q < n; q++) if (bounds[order[q]] > 0) addEssential(r, order[q], start, end);
      scored += scoreMatched(r, heap, start, order, m, below, bounds);
    }
    for (const cursor of cursors) cursor.skipTo(end);
  }
  return scored;
}

/** Orders terms by bound, ascending, ties by term (an insertion sort: a few terms, sorted once a window). */
function sortByBound(order: Int32Array, bounds: Float64Array): void {
  for (let i = 1; i < order.length; i++) {
    const j = order[i];
    let at = i;
    while (
      at > 0 &&
      (bounds[order[at - 1]] > bounds[j] || (bounds[order[at - 1]] === bounds[j] && order[at - 1] > j))
    ) {
      order[at] = order[at - 1];
      at--;
    }
    order[at] = j;
  }
}

/** The lowest next document of any term (read from the headers for blocks not decoded). */
function firstDoc(cursors: readonly BlockCursor[]): number {
  let doc = END;
  for (const cursor of cursors) {
    const at = cursor.nextAtLeast();
    if (at < doc) doc = at;
  }
  return doc;
}

/** Term j's highest score (weight 1) in the window ending before `end` (its cursor is at the window's start). */
function windowHighest(r: WindowRanking, j: number, end: number): number {
  const cursor = r.cursors[j];
  const { last, blockCount } = cursor.blocks;
  let highest = 0;
  for (let b = cursor.block; b < blockCount && last[b] < end; b++) {
    const bound = r.blockHighest(j, b);
    if (bound > highest) highest = bound;
  }
  return highest;
}

/** Adds essential term j's postings in [start, end) to its window scores and the essential sums. */
function addEssential(r: WindowRanking, j: number, start: number, end: number): void {
  const cursor = r.cursors[j];
  const weight = r.weights[j];
  const weighting = r.weightings[j];
  const { title, body } = r.lengths;
  const w = r.w;
  const offset = j * WINDOW;
  const { last, blockCount } = cursor.blocks;
  for (let doc = cursor.advance(start); doc < end; doc = cursor.next()) {
    const d = doc - start;
    const s = weight * bm25(weighting, w * cursor.titleTf() + cursor.bodyTf(), w * title[doc] + body[doc]);
    termScores[offset + d] = s;
    essentialSums[d] += s;
    matched[d >>> 5] |= 1 << (d & 31);
    // The window's last posting: the next block (if any) is another window's, not decoded until that one needs it.
    const b = cursor.block;
    if (doc === last[b] && (b + 1 >= blockCount || last[b + 1] >= end)) {
      cursor.skipTo(end);
      return;
    }
  }
}

/**
 * Each matched document of the window in increasing order: left out, bounded out, or looked up in the non-essential
 * terms order[0..m-1] (strongest first, each bounded by its block before it is decoded) and offered. Clears the
 * window's arrays. Returns the documents looked up.
 */
function scoreMatched(
  r: WindowRanking,
  heap: MatchHeap,
  start: number,
  order: Int32Array,
  m: number,
  below: Float64Array,
  bounds: Float64Array,
): number {
  const { cursors, weights, weightings, byQuery, leftOut, w } = r;
  const { title, body } = r.lengths;
  const n = cursors.length;
  let theta = heap.floor;
  let lookedUp = 0;
  for (let word = 0; word < matched.length; word++) {
    // Set bits lowest first: documents in increasing order.
    for (let bits = matched[word]; bits !== 0; bits &= bits - 1) {
      const d = (word << 5) + 31 - Math.clz32(bits & -bits);
      const doc = start + d;
      let partial = essentialSums[d];
      essentialSums[d] = 0;
      if ((partial + below[m]) * SLACK < theta || (leftOut !== null && leftOut(doc))) {
        // Only the essential terms have scores here.
        for (let q = m; q < n; q++) termScores[order[q] * WINDOW + d] = 0;
        continue;
      }
      lookedUp += 1;
      const length = w * title[doc] + body[doc];
      let out = false;
      for (let q = m - 1; q >= 0; q--) {
        const j = order[q];
        // No block in this window: no posting to look up.
        if (bounds[j] === 0) continue;
        if ((partial + bounds[j] + below[q]) * SLACK < theta) {
          out = true;
          break;
        }
        const cursor = cursors[j];
        if (!cursor.seekBlock(doc)) continue;
        if ((partial + weights[j] * r.blockHighest(j, cursor.block) + below[q]) * SLACK < theta) {
          out = true;
          break;
        }
        if (cursor.advance(doc) !== doc) continue;
        const s = weights[j] * bm25(weightings[j], w * cursor.titleTf() + cursor.bodyTf(), length);
        termScores[j * WINDOW + d] = s;
        partial += s;
      }
      // The score as a sum over every posting adds it up: term by term in query order.
      let score = 0;
      for (let i = 0; i < n; i++) {
        const at = byQuery[i] * WINDOW + d;
        score += termScores[at];
        termScores[at] = 0;
      }
      if (out || r.handedOut(score, doc)) continue;
      heap.offer(score, doc);
      theta = heap.floor;
    }
    matched[word] = 0;
  }
  return lookedUp;
}
