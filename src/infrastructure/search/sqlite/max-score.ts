/**
 * Ranking a query's best matches without scoring every posting of its terms: MaxScore (Turtle & Flood 1995) over
 * compressed blocks, document at a time, with block-max bounds for the terms it only looks up (Chakrabarti et
 * al. 2011; Ding & Suel 2011).
 *
 * Each term has an upper bound, and each of its blocks one: the highest score of the block's postings when the
 * term has exact maxima (block-maxima.ts: a cached term asked for again), else the BM25 score of the block's highest
 * tfs in the organization's shortest document (bm25.ts, document-lengths.ts); the term's is its blocks' highest,
 * times its weight. Terms are ordered by bound; once the heap holds `k` matches and
 * the bounds of the weakest terms together stay under the k-th score (θ), those terms are "non-essential": a
 * document none of the other terms contains cannot enter, so documents are taken from the essential terms' postings
 * only, and a non-essential term is looked up in a document only while the document can still reach θ (its
 * partial score plus the remaining bounds, the looked-up term's bounded by the block the document would be in, read
 * from the block header without decoding it). A block is decoded only when a posting in it is needed; when a
 * single essential term is left, its blocks whose highest score cannot lift a document to θ are skipped unread.
 * This is the document-at-a-time path. A query of up to WINDOW_TERMS terms is ranked the same way a window of
 * documents at a time (window-ranking.ts), and one with few postings (DENSE_POSTINGS, DENSE_PER_WINDOW) densely:
 * every posting added to its document's sum (from kept scores when the term has them), a window at a time.
 *
 * Exact: a document is left out only when a bound proves it below θ (with a relative slack of SLACK, so that no
 * rounding of the bounds' sums can leave out a document that ties), and a kept document's score is added up in
 * query order from its terms' scores, the same floating-point number as a sum over every posting. Ties rank by
 * the lower document number (documents come in increasing order, so a later one never displaces an equal score).
 */
import { bm25, type CollectionStats, termWeighting, type TermWeighting } from './bm25';
import { type DocumentLengths, shortestLength } from './document-lengths';
import { maximaUnder } from './block-maxima';
import { addWindows, type DenseTerm } from './dense-sums';
import { rankWindows, WINDOW, WINDOW_TERMS } from './window-ranking';
import { BlockCursor, END, type TermBlocks } from './term-blocks';
import { CollapsingHeap, type MatchHeap, WorstFirstHeap } from './top-matches';

/**
 * Up to this many postings over all of a query's terms, ranking adds every posting up (dense-sums.ts, a window of
 * documents at a time) instead of skipping any: with few postings there is little to skip (SciFact's queries:
 * ~10,000 postings). At 100k synthetic chunks (~44,000 postings a query), in one process alternating, a 10-item
 * ask took 0.32 ms with 20,000 against 0.48 with 100,000 (100 items: 1.10 against 1.04).
 */
export const DENSE_POSTINGS = 20_000;

/**
 * Also dense when a query has at most this many postings per window of the organization's document range: skipping
 * pays for its per-window work (bounds, sorting, lookups) only where windows hold enough postings. At 1M chunks a
 * topical hybrid ask (~65,000 postings, ~270 a window) took 2.9 ms dense against 4.1 window by window, while
 * synthetic queries (~440,000 postings, ~1,800 a window) are faster window by window (10 items: 2.9 against ~10 ms
 * dense; docs/benchmarks.md, "Dense, MaxScore or windows").
 */
export const DENSE_PER_WINDOW = 512;

/**
 * Terms with at most this many postings are kept with their scores (TermBlocks.scored) when first read: 12 bytes a
 * posting more.
 */
export const SCORED_POSTINGS = 16_384;

/**
 * Terms with at most this many postings get their scores kept when a cached term is asked for again (a cold query
 * does not pay for them). The dense path then adds a posting without decoding it or reading its document's length:
 * at 1M chunks a topical hybrid ask took 1.46 against 2.72 ms (its terms have ~1,000–50,000 postings). The 200
 * queries' terms then took 180 MiB of posting cache at 1M synthetic chunks (134 without), 155 MiB on topical
 * text (83).
 */
export const WARM_SCORED_POSTINGS = 65_536;

/** A bound times this is compared with θ: sums of bounds in another order than the scores' may round lower. */
const SLACK = 1 + 1e-9;

/** When a ranking adds every posting up, and how it skips otherwise (MaxScoreRanker's constructor). */
export interface RankingOptions {
  densePostings?: number;
  densePerWindow?: number;
  ranking?: 'windows' | 'documents';
}

export interface RankTerm {
  blocks: TermBlocks;
  /** How many times the query has the term. */
  weight: number;
}

export interface RankedDoc {
  docNo: number;
  score: number;
}

/** Ranking one match per collapse value (top-matches.ts CollapsingHeap). */
export interface Collapse {
  /** Each document's value, -1 for none. */
  keys: Float64Array;
  /** Documents left out. */
  excluded: ReadonlySet<number>;
  /** Values whose documents are left out (SearchQuery.collapse.excluded_values). */
  excludedKeys?: ReadonlySet<number>;
}

/** Whether a document is left out of a collapsed ranking (the heap turns the same ones away). */
function excludedBy({ keys, excluded, excludedKeys }: Collapse): (doc: number) => boolean {
  if (excludedKeys === undefined) return (doc) => excluded.has(doc);
  return (doc) => excluded.has(doc) || (keys[doc] >= 0 && excludedKeys.has(keys[doc]));
}

/** Either predicate (null: none). */
function either(
  a: ((doc: number) => boolean) | null,
  b: ((doc: number) => boolean) | null,
): ((doc: number) => boolean) | null {
  if (a === null || b === null) return a ?? b;
  return (doc) => a(doc) || b(doc);
}

/** A query's terms over one organization's snapshot; `top()` ranks them, as often as asked. */
export class MaxScoreRanker {
  /** Per term, ordered by bound (weakest first): its cursor, weight, idf and bound. */
  private readonly cursors: BlockCursor[];
  private readonly weights: Float64Array;
  private readonly weightings: TermWeighting[];
  /** Per term, its blocks' exact maxima (block-maxima.ts), or null: bounded by the block headers. */
  private readonly maxima: Array<Float64Array | null>;
  private readonly bounds: Float64Array;
  /** Running sums of the bounds (prefix[j]: terms 0..j together). */
  private readonly prefix: Float64Array;
  /** Each term's position in the query, and the term at each position. */
  private readonly queryIndex: Int32Array;
  private readonly byQuery: Int32Array;
  /** Each term's score in the current document (0 where it has none), by position in the query. */
  private readonly current: Float64Array;
  /** The block whose bound `blockBounds` holds, per term. */
  private readonly boundOf: Int32Array;
  private readonly blockBounds: Float64Array;
  private readonly shortest: number;
  private readonly densePostings: number;
  private readonly densePerWindow: number;
  private readonly ranking: 'windows' | 'documents';
  private readonly w: number;
  /**
   * Documents every ranking leaves out, never scored (those whose kept expiry fails the query's condition on it:
   * their rows would fail the filters). Null: none.
   */
  skip: ((doc: number) => boolean) | null = null;
  /**
   * Documents the last `top()` scored beyond its first bound: on the document-at-a-time path, those whose terms were
   * scored; window by window, those whose non-essential terms were looked up (what it cost; 0 on the dense path).
   */
  scoredDocuments = 0;

  /**
   * `options`: when to rank densely (DENSE_POSTINGS, DENSE_PER_WINDOW; 0 for never) and how otherwise: window by
   * window (window-ranking.ts, for up to WINDOW_TERMS terms) or document at a time.
   */
  constructor(
    terms: readonly RankTerm[],
    private readonly lengths: DocumentLengths,
    stats: CollectionStats,
    titleBoost: number,
    options: RankingOptions = {},
  ) {
    this.densePostings = options.densePostings ?? DENSE_POSTINGS;
    this.densePerWindow = options.densePerWindow ?? DENSE_PER_WINDOW;
    this.ranking = options.ranking ?? 'windows';
    this.w = titleBoost;
    this.shortest = shortestLength(lengths, titleBoost);
    const scored = terms.map(({ blocks, weight }, i) => {
      const weighting = termWeighting(blocks.df, stats, titleBoost);
      const maxima = maximaUnder(blocks, weighting);
      let highest = 0;
      if (maxima !== null) {
        for (let b = 0; b < blocks.blockCount; b++) if (maxima[b] > highest) highest = maxima[b];
      } else {
        let tf = 0;
        for (let b = 0; b < blocks.blockCount; b++)
          tf = Math.max(tf, titleBoost * blocks.maxTitle[b] + blocks.maxBody[b]);
        highest = bm25(weighting, tf, this.shortest);
      }
      return { i, blocks, weight, weighting, maxima, bound: weight * highest };
    });
    scored.sort((a, b) => a.bound - b.bound || a.i - b.i);
    const n = scored.length;
    this.cursors = scored.map((t) => new BlockCursor(t.blocks));
    this.weights = Float64Array.from(scored, (t) => t.weight);
    this.weightings = scored.map((t) => t.weighting);
    this.maxima = scored.map((t) => t.maxima);
    this.bounds = Float64Array.from(scored, (t) => t.bound);
    this.queryIndex = Int32Array.from(scored, (t) => t.i);
    this.byQuery = new Int32Array(n);
    this.queryIndex.forEach((i, j) => (this.byQuery[i] = j));
    this.prefix = new Float64Array(n);
    let sum = 0;
    for (let j = 0; j < n; j++) this.prefix[j] = sum += this.bounds[j];
    this.current = new Float64Array(n);
    this.boundOf = new Int32Array(n);
    this.blockBounds = new Float64Array(n);
  }

  /**
   * The `k` best matches (score > 0) ranked after (lastScore, lastDoc), best first: score descending, then
   * document number. (Infinity, −1) ranks after nothing. With `collapse`: the best match of each of the `k` best
   * values, documents in `collapse.excluded` and of values in `collapse.excludedKeys` left out.
   */
  top(k: number, lastScore = Infinity, lastDoc = -1, collapse?: Collapse): RankedDoc[] {
    const { cursors, prefix, queryIndex, current } = this;
    const n = cursors.length;
    let postings = 0;
    for (const cursor of cursors) {
      cursor.decodedBlocks = 0;
      postings += cursor.blocks.df;
    }
    // No more matches than postings: the heap is never larger.
    const capacity = Math.min(k, postings);
    const heap: MatchHeap =
      collapse === undefined
        ? new WorstFirstHeap(capacity)
        : new CollapsingHeap(capacity, collapse.keys, collapse.excluded, collapse.excludedKeys);
    this.scoredDocuments = 0;
    const windows = Math.ceil(this.lengths.title.length / WINDOW);
    if (postings <= this.densePostings || postings <= this.densePerWindow * windows)
      return this.denseTop(heap, lastScore, lastDoc);
    const leftOut = either(collapse === undefined ? null : excludedBy(collapse), this.skip);
    if (this.ranking === 'windows' && n <= WINDOW_TERMS) {
      this.scoredDocuments = rankWindows(
        {
          cursors,
          weights: this.weights,
          weightings: this.weightings,
          byQuery: this.byQuery,
          blockHighest: (j, b) => this.blockHighest(j, b),
          lengths: this.lengths,
          w: this.w,
          leftOut,
          handedOut: (score, doc) => handedOut(score, doc, lastScore, lastDoc),
        },
        heap,
      );
      return heap.drain();
    }
    for (const cursor of cursors) cursor.reset();
    this.boundOf.fill(-1);
    // θ: the worst kept score once the heap is full (until then any positive score is taken).
    let theta = heap.floor;
    // Terms essential..n−1 are the essential ones.
    let essential = 0;
    for (;;) {
      let doc = END;
      for (let j = essential; j < n; j++) if (cursors[j].doc < doc) doc = cursors[j].doc;
      if (doc === END) break;
      if (leftOut !== null && leftOut(doc)) {
        // Never scored: the heap would turn it away.
        for (let j = essential; j < n; j++) if (cursors[j].doc === doc) cursors[j].next();
        continue;
      }
      if (essential > 0) {
        // What the document can reach: the essential terms it is in, each at its block's highest, and the rest.
        let bound = prefix[essential - 1];
        for (let j = essential; j < n; j++) if (cursors[j].doc === doc) bound += this.blockBound(j);
        if (bound * SLACK < theta) {
          if (essential === n - 1) this.skipBlocks(n - 1, prefix[n - 2], theta);
          else for (let j = essential; j < n; j++) if (cursors[j].doc === doc) cursors[j].next();
          continue;
        }
      }
      const length = this.w * this.lengths.title[doc] + this.lengths.body[doc];
      this.scoredDocuments += 1;
      let partial = 0;
      for (let j = n - 1; j >= essential; j--) {
        const cursor = cursors[j];
        if (cursor.doc !== doc) continue;
        const s = this.score(j, length);
        current[queryIndex[j]] = s;
        partial += s;
        cursor.next();
      }
      let out = false;
      for (let j = essential - 1; j >= 0; j--) {
        // Even every remaining term at its highest cannot lift the document to θ.
        const rest = j > 0 ? prefix[j - 1] : 0;
        if ((partial + this.bounds[j] + rest) * SLACK < theta) {
          out = true;
          break;
        }
        const cursor = cursors[j];
        if (!cursor.seekBlock(doc)) continue;
        if ((partial + this.blockBound(j) + rest) * SLACK < theta) {
          out = true;
          break;
        }
        if (cursor.advance(doc) !== doc) continue;
        const s = this.score(j, length);
        current[queryIndex[j]] = s;
        partial += s;
      }
      // The score as a sum over every posting adds it up: term by term in query order.
      let score = 0;
      for (let i = 0; i < n; i++) {
        score += current[i];
        current[i] = 0;
      }
      if (out || handedOut(score, doc, lastScore, lastDoc)) continue;
      heap.offer(score, doc);
      if (heap.floor > theta) {
        theta = heap.floor;
        while (essential < n && prefix[essential] * SLACK < theta) essential++;
      }
    }
    return heap.drain();
  }

  /**
   * Every posting added to its document's sum, term by term in query order (the same floating-point sums as
   * the document-at-a-time path), a window of documents at a time (dense-sums.ts), each window's matched
   * documents offered to the heap in document order.
   */
  private denseTop(heap: MatchHeap, lastScore: number, lastDoc: number): RankedDoc[] {
    const terms: DenseTerm[] = [];
    for (let i = 0; i < this.cursors.length; i++) {
      const j = this.byQuery[i];
      terms.push({ blocks: this.cursors[j].blocks, weight: this.weights[j], weighting: this.weightings[j] });
    }
    const skip = this.skip;
    const decoded = addWindows(terms, this.lengths, (doc, score) => {
      // Most documents are under the heap's floor: turned away before anything else is read for them.
      if (!(score >= heap.floor) || (skip !== null && skip(doc))) return;
      if (!handedOut(score, doc, lastScore, lastDoc)) heap.offer(score, doc);
    });
    decoded.forEach((blocks, i) => (this.cursors[this.byQuery[i]].decodedBlocks += blocks));
    return heap.drain();
  }

  /**
   * The exact scores of `docs` (ascending document numbers; 0 where none of the terms is), each the same number
   * `top()` gives it: its terms' scores added in query order.
   */
  scoreDocs(docs: Int32Array): Float64Array {
    const scores = new Float64Array(docs.length);
    for (let i = 0; i < this.cursors.length; i++) {
      const j = this.byQuery[i];
      const cursor = this.cursors[j];
      cursor.reset();
      for (let d = 0; d < docs.length; d++) {
        const doc = docs[d];
        if (cursor.advance(doc) === END) break;
        if (cursor.doc === doc)
          scores[d] += this.score(j, this.w * this.lengths.title[doc] + this.lengths.body[doc]);
      }
    }
    return scores;
  }

  /** Blocks the last `top()` decoded, per term in query order (what it cost; a term's blockCount if all). */
  get decodedBlocks(): number[] {
    const decoded = new Array<number>(this.cursors.length);
    this.cursors.forEach((cursor, j) => (decoded[this.queryIndex[j]] = cursor.decodedBlocks));
    return decoded;
  }

  /** Term j's score (weight included) at its cursor's posting, in a document of weighted length `length`. */
  private score(j: number, length: number): number {
    const cursor = this.cursors[j];
    return this.weights[j] * bm25(this.weightings[j], this.w * cursor.titleTf() + cursor.bodyTf(), length);
  }

  /** The highest score (query weight 1) term j can have in its block b: exact, or from the block's header. */
  private blockHighest(j: number, b: number): number {
    const maxima = this.maxima[j];
    if (maxima !== null) return maxima[b];
    const { maxTitle, maxBody } = this.cursors[j].blocks;
    return bm25(this.weightings[j], this.w * maxTitle[b] + maxBody[b], this.shortest);
  }

  /** Term j's highest score (weight included) in its cursor's block. */
  private blockBound(j: number): number {
    const cursor = this.cursors[j];
    const b = cursor.block;
    if (this.boundOf[j] !== b) {
      this.boundOf[j] = b;
      this.blockBounds[j] = this.weights[j] * this.blockHighest(j, b);
    }
    return this.blockBounds[j];
  }

  /**
   * The only essential term j: past its current block and every next one whose highest score, with every other
   * term at its highest (`rest`), stays under θ, without decoding them.
   */
  private skipBlocks(j: number, rest: number, theta: number): void {
    const cursor = this.cursors[j];
    const { blockCount } = cursor.blocks;
    const weight = this.weights[j];
    let b = cursor.block + 1;
    while (b < blockCount) {
      const bound = weight * this.blockHighest(j, b);
      if ((bound + rest) * SLACK >= theta) break;
      b++;
    }
    cursor.toBlock(b);
  }
}

/** A ranker's matches handed out best first, a slice at a time (each slice ranked after the previous one). */
export class RankedMatches {
  private lastScore = Infinity;
  private lastDoc = -1;

  constructor(private readonly ranker: MaxScoreRanker) {}

  /** The next `n` best (fewer at the end). */
  next(n: number): RankedDoc[] {
    if (n <= 0) return [];
    const slice = this.ranker.top(n, this.lastScore, this.lastDoc);
    if (slice.length > 0) {
      this.lastScore = slice[slice.length - 1].score;
      this.lastDoc = slice[slice.length - 1].docNo;
    }
    return slice;
  }
}

/** Whether a match ranks at or before (lastScore, lastDoc): handed out by an earlier slice. */
function handedOut(score: number, doc: number, lastScore: number, lastDoc: number): boolean {
  return score > lastScore || (score === lastScore && doc <= lastDoc);
}
