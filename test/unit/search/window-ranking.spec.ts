/**
 * Ranking window by window (window-ranking.ts): what it skips and when it is not used. Its results are held to a
 * brute force with the other paths in max-score-ranking.spec.ts and max-score-collapse.spec.ts.
 */
import {
  DENSE_PER_WINDOW,
  DENSE_POSTINGS,
  MaxScoreRanker,
} from '../../../src/infrastructure/search/sqlite/max-score';
import { BLOCK_SIZE, PARTITION_SIZE } from '../../../src/infrastructure/search/sqlite/postings';
import { BlockCursor } from '../../../src/infrastructure/search/sqlite/term-blocks';
import { rankWindows, WINDOW, WINDOW_TERMS } from '../../../src/infrastructure/search/sqlite/window-ranking';
import { WorstFirstHeap } from '../../../src/infrastructure/search/sqlite/top-matches';
import { seededRandom } from '../../../bench/synthetic-text';
import { bruteForce, type Corpus, corpus, type Posting, ranker, stored } from './ranking-corpus';

/** `size` documents of equal length (no title). */
function equalLengths(size: number): Corpus['lengths'] {
  return {
    title: new Uint16Array(size),
    body: new Uint32Array(size).fill(20),
    keys: new Float64Array(size).fill(-1),
    expiry: new Float64Array(size).fill(NaN),
  };
}

describe('ranking window by window', () => {
  it('is a partition wide, so that no block lies in two windows', () => {
    expect(WINDOW).toBe(PARTITION_SIZE);
  });

  it('skips, without decoding a block, the windows whose terms together cannot reach the best', () => {
    // Three partitions. The rare term: every 4th document, tf 1, but tf 8 in documents 100, 200 and 300 (the
    // first partition). The common term: every document, tf 1. Once the first window is ranked, the best three are
    // known and neither term at tf 1 can reach them: windows 2 and 3 are skipped.
    const size = 3 * PARTITION_SIZE;
    const best = [100, 200, 300];
    const rare = Array.from({ length: size / 4 }, (_, i): Posting => [
      4 * i,
      0,
      best.includes(4 * i) ? 8 : 1,
    ]);
    const common = Array.from({ length: size }, (_, i): Posting => [i, 0, 1]);
    const c: Corpus = {
      lengths: equalLengths(size),
      stats: { documents: size, titleTokens: 0, bodyTokens: 20 * size },
      terms: [common, rare],
    };
    const ranked = ranker(c, [1, 1], 1);
    const top = ranked.top(3);
    expect(top).toEqual(bruteForce(c, [1, 1], 1).slice(0, 3));
    expect(top.map(({ docNo }) => docNo)).toEqual(best);
    // Only the first partition's blocks: the common term's 32, the rare term's 8.
    expect(ranked.decodedBlocks).toEqual([PARTITION_SIZE / BLOCK_SIZE, PARTITION_SIZE / 4 / BLOCK_SIZE]);
    expect(ranker(c, [1, 1], 1, 0, undefined, undefined, 'documents').top(3)).toEqual(top);
  });

  it('adds every posting up when windows hold few of them (DENSE_PER_WINDOW), else skips window by window', () => {
    const rank = (densities: number[], size: number) => {
      const c = corpus(seededRandom(4), size, densities);
      const weights = densities.map(() => 1);
      const ranking = new MaxScoreRanker(
        c.terms.map((postings) => ({ blocks: stored(postings), weight: 1 })),
        c.lengths,
        c.stats,
        1,
      );
      expect(ranking.top(10)).toEqual(bruteForce(c, weights, 1).slice(0, 10));
      const postings = c.terms.reduce((n, t) => n + t.length, 0);
      return { postings, perWindow: postings / Math.ceil(size / WINDOW), scored: ranking.scoredDocuments };
    };
    // Over DENSE_POSTINGS in all, few a window: dense (nothing scored one by one).
    const sparse = rank([0.02, 0.01, 0.005], 400 * WINDOW);
    expect(sparse.postings).toBeGreaterThan(DENSE_POSTINGS);
    expect(sparse.perWindow).toBeLessThanOrEqual(DENSE_PER_WINDOW);
    expect(sparse.scored).toBe(0);
    // Over DENSE_POSTINGS, many a window: window by window.
    const dense = rank([0.5, 0.05], 12 * WINDOW);
    expect(dense.postings).toBeGreaterThan(DENSE_POSTINGS);
    expect(dense.perWindow).toBeGreaterThan(DENSE_PER_WINDOW);
    expect(dense.scored).toBeGreaterThan(0);
  });

  it(`ranks a query of more than ${WINDOW_TERMS} terms document at a time, and refuses it window by window`, () => {
    const c = corpus(
      seededRandom(11),
      2 * PARTITION_SIZE,
      Array.from({ length: WINDOW_TERMS + 1 }, () => 0.2),
    );
    const weights = c.terms.map(() => 1);
    expect(ranker(c, weights, 1).top(10)).toEqual(bruteForce(c, weights, 1).slice(0, 10));
    const cursors = c.terms.map((postings) => new BlockCursor(stored(postings)));
    const ranking = new MaxScoreRanker(
      c.terms.map((postings) => ({ blocks: stored(postings), weight: 1 })),
      c.lengths,
      c.stats,
      1,
    );
    expect(ranking.top(5)).toEqual(bruteForce(c, weights, 1).slice(0, 5));
    expect(() =>
      rankWindows(
        {
          cursors,
          weights: new Float64Array(cursors.length).fill(1),
          weightings: [],
          byQuery: new Int32Array(cursors.length),
          blockHighest: () => 1,
          lengths: c.lengths,
          w: 1,
          leftOut: null,
          handedOut: () => false,
        },
        new WorstFirstHeap(5),
      ),
    ).toThrow(RangeError);
  });
});
