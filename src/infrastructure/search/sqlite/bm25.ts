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
import type { DocumentLengths } from './document-lengths';
import type { DecodedPostings } from './postings';
import { selectBest } from './top-matches';

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
  /** The highest of `scores` (0 when empty): what the term can add to any document's score at most. */
  max: number;
}

/** Scores every posting of a term (its partitions' postings, in document order); lengths by document number. */
export function termScores(
  lists: readonly DecodedPostings[],
  lengths: DocumentLengths,
  stats: CollectionStats,
  titleBoost: number,
): TermScores {
  let df = 0;
  for (const list of lists) df += list.count;
  const docs = new Int32Array(df);
  const scores = new Float64Array(df);
  if (df === 0) return { docs, scores, max: 0 };
  const n = Math.max(stats.documents, df);
  const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const w = titleBoost;
  const total = w * stats.titleTokens + stats.bodyTokens;
  const avgLength = stats.documents > 0 && total > 0 ? total / stats.documents : 1;
  const c0 = BM25_K1 * (1 - BM25_B);
  const c1 = (BM25_K1 * BM25_B) / avgLength;
  let k = 0;
  let max = 0;
  for (const list of lists) {
    for (let i = 0; i < list.count; i++, k++) {
      const doc = list.docs[i];
      docs[k] = doc;
      const tf = w * list.titleTf[i] + list.bodyTf[i];
      const length = w * lengths.title[doc] + lengths.body[doc];
      scores[k] = tf === 0 ? 0 : (idf * tf) / (tf + c0 + c1 * length);
      if (scores[k] > max) max = scores[k];
    }
  }
  return { docs, scores, max };
}

/** A term in more than this share of the organization's documents is "common" (see Bm25Accumulator). */
const COMMON_SHARE = 1 / 16;
/** Past this many candidates (a share of the documents), tracking them costs more than scoring densely. */
const CANDIDATE_SHARE = 1 / 4;

interface QueryTerm {
  term: TermScores;
  weight: number;
}

/**
 * Sums one query's term scores per document number, in a dense array reused from query to query (a query runs
 * synchronously from begin() to end()), sized by the organization's highest document number. A document
 * matches when its sum is positive (every posting has tf > 0 and idf > 0).
 *
 * Common terms are not added for every document unless the ranking needs it (max-score pruning, exact): the
 * rarer terms (at least the one that can add the most) name the candidates; a common term (in more than
 * COMMON_SHARE of the documents, e.g. a frequent word in an organization of a million chunks) is added to the
 * candidates only, found in its sorted postings by galloping search. A document that is no candidate scores at
 * most the sum of the common terms' highest scores (the bound), so a slice of best matches whose last score
 * exceeds the bound is exact; otherwise the common terms are added for every other document (completion) and
 * ranking goes on over the dense sums. Terms are added in query order for every document either way, so each
 * sum is the same floating-point number as without pruning.
 */
export class Bm25Accumulator {
  private sums = new Float64Array(1024);
  /** 1 for a candidate (only while candidates are tracked). */
  private marks = new Uint8Array(1024);
  private candidates = new Int32Array(1024);
  private candidateCount = 0;
  private size = 0;
  private terms: QueryTerm[] = [];
  /** Whether the common terms still lack their non-candidate documents (the sums are not dense yet). */
  private pruned = false;
  private tracked = false;
  private common: QueryTerm[] = [];
  private bound = 0;

  begin(size: number): void {
    if (size > this.sums.length) {
      const length = Math.max(size, this.sums.length * 2);
      this.sums = new Float64Array(length);
      this.marks = new Uint8Array(length);
      this.candidates = new Int32Array(length);
    }
    this.size = size;
    this.terms = [];
  }

  /** Adds one query term, counted `weight` times (scored when ranked() is called). */
  add(term: TermScores, weight: number): void {
    this.terms.push({ term, weight });
  }

  /**
   * The matches, best first, a slice at a time; valid until end(). `firstSlice`: the size of the first slice the
   * caller will ask for (when the candidates are fewer, pruning could only end in completion: scored densely).
   */
  ranked(firstSlice = 0): RankedMatches {
    this.evaluate(firstSlice);
    return new RankedMatches(this);
  }

  /** Clears the sums for the next query. */
  end(): void {
    if (this.tracked) {
      const { candidates, sums, marks } = this;
      for (let i = 0; i < this.candidateCount; i++) {
        marks[candidates[i]] = 0;
        if (this.pruned) sums[candidates[i]] = 0;
      }
    }
    if (!this.tracked || !this.pruned) this.sums.fill(0, 0, this.size);
    this.size = 0;
    this.terms = [];
    this.common = [];
    this.candidateCount = 0;
    this.tracked = false;
    this.pruned = false;
    this.bound = 0;
  }

  /** @internal The candidates when the sums are not dense (null: rank every document number). */
  get candidateList(): Int32Array | null {
    return this.pruned ? this.candidates.subarray(0, this.candidateCount) : null;
  }

  /** @internal The dense sums (a candidate's sum is final even while pruned). */
  get scores(): Float64Array {
    return this.sums;
  }

  /** @internal The organization's document number range. */
  get range(): number {
    return this.size;
  }

  /** @internal Whether a slice of best matches ending with `last` (of `want` asked, `got` found) is exact. */
  exact(got: number, want: number, last: number): boolean {
    return !this.pruned || this.common.length === 0 || (got === want && last > this.bound);
  }

  /** @internal Adds the common terms for every non-candidate document: the sums become dense. */
  complete(): void {
    const { sums, marks } = this;
    for (const { term, weight } of this.common) {
      const { docs, scores } = term;
      for (let i = 0; i < docs.length; i++) if (marks[docs[i]] === 0) sums[docs[i]] += weight * scores[i];
    }
    this.pruned = false;
  }

  private evaluate(firstSlice: number): void {
    const { terms, size } = this;
    let first: QueryTerm | undefined;
    for (const t of terms)
      if (first === undefined || t.term.max * t.weight > first.term.max * first.weight) first = t;
    const common = terms.filter((t) => t !== first && t.term.docs.length > size * COMMON_SHARE);
    let rareDocs = 0;
    for (const t of terms) if (!common.includes(t)) rareDocs += t.term.docs.length;
    const tooFew = common.length > 0 && rareDocs < firstSlice;
    if (rareDocs > size * CANDIDATE_SHARE || tooFew) {
      for (const { term, weight } of terms) addAll(this.sums, term, weight);
      return;
    }
    // The candidates: every document of a rare term, ascending.
    const { marks, candidates } = this;
    let count = 0;
    let rareTerms = 0;
    for (const t of terms) {
      if (common.includes(t)) continue;
      rareTerms += 1;
      const { docs } = t.term;
      for (let i = 0; i < docs.length; i++) {
        if (marks[docs[i]] === 0) {
          marks[docs[i]] = 1;
          candidates[count++] = docs[i];
        }
      }
    }
    if (rareTerms > 1) candidates.subarray(0, count).sort();
    this.candidateCount = count;
    this.tracked = true;
    if (common.length > 0 && count < firstSlice) {
      // Fewer candidates than the first slice: it could not be proven exact.
      for (const { term, weight } of terms) addAll(this.sums, term, weight);
      return;
    }
    this.pruned = true;
    this.common = common;
    this.bound = 0;
    for (const t of common) this.bound += t.term.max * t.weight;
    for (const t of terms) {
      if (common.includes(t)) addToCandidates(this.sums, t.term, t.weight, candidates, count);
      else addAll(this.sums, t.term, t.weight);
    }
  }
}

function addAll(sums: Float64Array, term: TermScores, weight: number): void {
  const { docs, scores } = term;
  for (let i = 0; i < docs.length; i++) sums[docs[i]] += weight * scores[i];
}

/** Adds a term to the candidates (ascending) it contains, galloping through its sorted postings. */
function addToCandidates(
  sums: Float64Array,
  term: TermScores,
  weight: number,
  candidates: Int32Array,
  count: number,
): void {
  const { docs, scores } = term;
  const n = docs.length;
  let p = 0;
  for (let i = 0; i < count; i++) {
    const doc = candidates[i];
    if (p < n && docs[p] < doc) {
      // docs[p] < doc: double the step until past it, then a binary search in the last step.
      let step = 1;
      let hi = p + 1;
      while (hi < n && docs[hi] < doc) {
        p = hi;
        step *= 2;
        hi = p + step;
      }
      let lo = p + 1;
      let end = Math.min(hi, n);
      while (lo < end) {
        const mid = (lo + end) >>> 1;
        if (docs[mid] < doc) lo = mid + 1;
        else end = mid;
      }
      p = lo;
    }
    if (p < n && docs[p] === doc) sums[doc] += weight * scores[p];
  }
}

export interface RankedDoc {
  docNo: number;
  score: number;
}

/**
 * Matches handed out best first (score descending, then document number), a slice at a time. Each slice is a
 * heap selection over the documents ranked after the previous slice (one pass over the candidates, or over the
 * dense sums once complete); a slice the pruning cannot prove exact completes the sums and is selected again.
 */
export class RankedMatches {
  /** The last document handed out (−1: none yet) and its score. */
  private lastDoc = -1;
  private lastScore = Infinity;

  constructor(private readonly accumulator: Bm25Accumulator) {}

  /** The next `n` best (fewer at the end). */
  next(n: number): RankedDoc[] {
    if (n <= 0) return [];
    const acc = this.accumulator;
    const sums = acc.scores;
    for (;;) {
      const order = selectBest(sums, acc.candidateList, acc.range, n, this.lastScore, this.lastDoc);
      const last = order.length > 0 ? sums[order[order.length - 1]] : 0;
      if (!acc.exact(order.length, n, last)) {
        acc.complete();
        continue;
      }
      if (order.length > 0) {
        this.lastDoc = order[order.length - 1];
        this.lastScore = last;
      }
      return order.map((docNo) => ({ docNo, score: sums[docNo] }));
    }
  }
}
