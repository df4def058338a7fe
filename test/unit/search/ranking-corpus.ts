/** Corpora for the ranking tests: random documents and terms, stored as the index stores them, and a brute force. */
import { bm25, type CollectionStats, termWeighting } from '../../../src/infrastructure/search/sqlite/bm25';
import { computeBlockMaxima } from '../../../src/infrastructure/search/sqlite/block-maxima';
import { scorePostings } from '../../../src/infrastructure/search/sqlite/dense-sums';
import type { DocumentLengths } from '../../../src/infrastructure/search/sqlite/document-lengths';
import { MaxScoreRanker, type RankTerm } from '../../../src/infrastructure/search/sqlite/max-score';
import { encodePostings, PARTITION_SIZE } from '../../../src/infrastructure/search/sqlite/postings';
import { readTermBlocks, type TermBlocks } from '../../../src/infrastructure/search/sqlite/term-blocks';

/** (docNo, titleTf, bodyTf), ascending by docNo. */
export type Posting = [number, number, number];

/** A term's rows as the index stores them: one encoded blob per partition it occurs in, in partition order. */
export function stored(postings: Posting[]): TermBlocks {
  const parts = new Map<number, Posting[]>();
  for (const p of postings) {
    const part = Math.floor(p[0] / PARTITION_SIZE);
    parts.set(part, [...(parts.get(part) ?? []), p]);
  }
  const rows = [...parts.keys()]
    .sort((a, b) => a - b)
    .map((part) => {
      const list = parts.get(part) ?? [];
      const blob = encodePostings({
        count: list.length,
        docs: Int32Array.from(list, ([doc]) => doc),
        titleTf: Uint16Array.from(list, ([, t]) => t),
        bodyTf: Uint16Array.from(list, ([, , b]) => b),
      });
      if (blob === null) throw new Error('no postings');
      return blob;
    });
  return readTermBlocks(rows);
}

export interface Corpus {
  lengths: DocumentLengths;
  stats: CollectionStats;
  terms: Posting[][];
}

/** `size` documents with small lengths (many ties) and terms of the given densities, tfs small (ties again). */
export function corpus(random: () => number, size: number, densities: number[]): Corpus {
  const lengths = {
    title: new Uint16Array(size),
    body: new Uint32Array(size),
    keys: new Float64Array(size).fill(-1),
    expiry: new Float64Array(size).fill(NaN),
  };
  let titleTokens = 0;
  let bodyTokens = 0;
  for (let doc = 0; doc < size; doc++) {
    lengths.title[doc] = Math.floor(random() * 4);
    lengths.body[doc] = 5 + Math.floor(random() * 6) * 10;
    titleTokens += lengths.title[doc];
    bodyTokens += lengths.body[doc];
  }
  const terms = densities.map((density) => {
    const postings: Posting[] = [];
    for (let doc = 0; doc < size; doc++) {
      if (random() >= density) continue;
      const title = lengths.title[doc] > 0 && random() < 0.3 ? 1 : 0;
      const body = title === 1 && random() < 0.3 ? 0 : 1 + Math.floor(random() * random() * 4);
      postings.push([doc, title, body]);
    }
    return postings;
  });
  return { lengths, stats: { documents: size, titleTokens, bodyTokens }, terms };
}

/** Every match, best first: each document's terms summed in query order, as a sum over every posting would. */
export function bruteForce(c: Corpus, weights: number[], w: number): Array<{ docNo: number; score: number }> {
  const sums = new Map<number, number>();
  c.terms.forEach((postings, i) => {
    const weighting = termWeighting(postings.length, c.stats, w);
    for (const [doc, title, body] of postings) {
      const s =
        weights[i] * bm25(weighting, w * title + body, w * c.lengths.title[doc] + c.lengths.body[doc]);
      sums.set(doc, (sums.get(doc) ?? 0) + s);
    }
  });
  return [...sums]
    .filter(([, score]) => score > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([docNo, score]) => ({ docNo, score }));
}

/**
 * The ranker over `c`, skipping (densePostings 0; never dense for few postings a window) unless told to add up
 * every posting; `scoredFor`:
 * the title weight each term's kept scores were computed for (none kept when undefined); `maximaFor`: the title
 * weight its blocks' exact maxima were computed for (none when undefined: header bounds); `ranking`: window by
 * window or document at a time.
 */
export function ranker(
  c: Corpus,
  weights: number[],
  w: number,
  densePostings = 0,
  scoredFor?: number,
  maximaFor?: number,
  ranking: 'windows' | 'documents' = 'windows',
): MaxScoreRanker {
  const terms: RankTerm[] = c.terms.map((postings, i) => {
    const blocks = stored(postings);
    if (scoredFor !== undefined)
      blocks.scored = scorePostings(blocks, termWeighting(blocks.df, c.stats, scoredFor), c.lengths);
    if (maximaFor !== undefined)
      blocks.maxima = computeBlockMaxima(blocks, termWeighting(blocks.df, c.stats, maximaFor), c.lengths);
    return { blocks, weight: weights[i] };
  });
  return new MaxScoreRanker(terms, c.lengths, c.stats, w, { densePostings, densePerWindow: 0, ranking });
}
