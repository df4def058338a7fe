import { Bm25Accumulator, termScores, type TermScores } from '../../../src/infrastructure/search/sqlite/bm25';
import type { DocumentLengths } from '../../../src/infrastructure/search/sqlite/document-lengths';
import type { DecodedPostings } from '../../../src/infrastructure/search/sqlite/postings';

/** A term's postings and the documents' lengths, from (docNo, titleTf, bodyTf, titleLength, bodyLength) rows. */
function postings(
  rows: Array<[number, number, number, number, number]>,
): [DecodedPostings[], DocumentLengths] {
  const range = Math.max(...rows.map(([doc]) => doc)) + 1;
  const lengths = { title: new Uint16Array(range), body: new Uint32Array(range) };
  for (const [doc, , , titleLength, bodyLength] of rows) {
    lengths.title[doc] = titleLength;
    lengths.body[doc] = bodyLength;
  }
  const list = {
    count: rows.length,
    docs: Int32Array.from(rows.map(([doc]) => doc)),
    titleTf: Uint16Array.from(rows.map(([, titleTf]) => titleTf)),
    bodyTf: Uint16Array.from(rows.map(([, , bodyTf]) => bodyTf)),
  };
  return [[list], lengths];
}

function term(entries: Array<[number, number]>): TermScores {
  return {
    docs: Int32Array.from(entries.map(([doc]) => doc)),
    scores: Float64Array.from(entries.map(([, score]) => score)),
    max: Math.max(0, ...entries.map(([, score]) => score)),
  };
}

/** A deterministic generator in [0, 1). */
function generator(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1103515245 + 12345) >>> 0) % 100_000) / 100_000;
}

/** Every match, best first, summed term by term in query order (as the accumulator must). */
function bruteForce(terms: TermScores[], weights: number[]): Array<{ docNo: number; score: number }> {
  const sums = new Map<number, number>();
  terms.forEach((t, i) =>
    t.docs.forEach((doc, k) => sums.set(doc, (sums.get(doc) ?? 0) + weights[i] * t.scores[k])),
  );
  return [...sums].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([docNo, score]) => ({ docNo, score }));
}

/** Every slice of `sizes` in turn, flattened. */
function slices(
  accumulator: Bm25Accumulator,
  sizes: number[],
  firstSlice?: number,
): Array<{ docNo: number; score: number }> {
  const ranked = accumulator.ranked(firstSlice);
  return sizes.flatMap((n) => ranked.next(n));
}

describe('embedded BM25 scoring and ranking', () => {
  it('scores a posting as idf · tf / (tf + k1 · (1 − b + b · length / avgLength)), title and body as one field', () => {
    const stats = { documents: 10, titleTokens: 20, bodyTokens: 180 };
    const single = termScores(...postings([[3, 1, 2, 2, 18]]), stats, 1);
    const idf = Math.log(1 + (10 - 1 + 0.5) / (1 + 0.5));
    const expected = (idf * 3) / (3 + 0.9 * (1 - 0.4 + (0.4 * 20) / 20));
    expect(Array.from(single.docs)).toEqual([3]);
    expect(single.scores[0]).toBeCloseTo(expected, 12);
    // Title weight 2: the title's tf and length count twice, so does the average title length.
    const boosted = termScores(...postings([[3, 1, 2, 2, 18]]), stats, 2);
    const boostedExpected = (idf * 4) / (4 + 0.9 * (1 - 0.4 + (0.4 * 22) / 22));
    expect(boosted.scores[0]).toBeCloseTo(boostedExpected, 12);
  });

  it('concatenates blocks in document order and counts df over all of them', () => {
    const stats = { documents: 8, titleTokens: 0, bodyTokens: 80 };
    const [first, lengths] = postings([
      [1, 0, 1, 0, 10],
      [5000, 0, 1, 0, 10],
    ]);
    const split = [first[0], first[0]].map((list, i) => ({
      count: 1,
      docs: list.docs.subarray(i, i + 1),
      titleTf: list.titleTf.subarray(i, i + 1),
      bodyTf: list.bodyTf.subarray(i, i + 1),
    }));
    const scores = termScores(split, lengths, stats, 1);
    expect(Array.from(scores.docs)).toEqual([1, 5000]);
    const idf = Math.log(1 + (8 - 2 + 0.5) / (2 + 0.5));
    expect(scores.scores[1]).toBeCloseTo(idf / (1 + 0.9), 12);
  });

  it('ranks by score, ties by the lower document number, and its slices never repeat or skip a match', () => {
    const accumulator = new Bm25Accumulator();
    const random = (
      (seed: number) => () =>
        ((seed = (seed * 1103515245 + 12345) >>> 0) % 1000) / 1000
    )(7);
    const size = 3000;
    const terms = [0.9, 0.2, 0.05].map((density) => {
      const entries: Array<[number, number]> = [];
      for (let doc = 0; doc < size; doc++) {
        // Coarse scores: many exact ties.
        if (random() < density) entries.push([doc, Math.round(random() * 4) / 4 + 0.25]);
      }
      return term(entries);
    });
    accumulator.begin(size);
    terms.forEach((t, i) => accumulator.add(t, i + 1));
    const expected = new Map<number, number>();
    terms.forEach((t, i) =>
      t.docs.forEach((doc, k) => expected.set(doc, (expected.get(doc) ?? 0) + (i + 1) * t.scores[k])),
    );
    const order = [...expected].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([doc]) => doc);
    const got = slices(accumulator, [10, 40, 160, 640, 2560, 10240]).map((m) => m.docNo);
    expect(got).toEqual(order);
    accumulator.end();
  });

  it('starts each query from zero and leaves out documents no term matched', () => {
    const accumulator = new Bm25Accumulator();
    accumulator.begin(10);
    accumulator.add(
      term([
        [2, 1],
        [4, 3],
      ]),
      1,
    );
    expect(slices(accumulator, [5])).toEqual([
      { docNo: 4, score: 3 },
      { docNo: 2, score: 1 },
    ]);
    accumulator.end();
    accumulator.begin(10);
    accumulator.add(term([[7, 0.5]]), 2);
    expect(slices(accumulator, [5, 5])).toEqual([{ docNo: 7, score: 1 }]);
    accumulator.end();
  });

  it('ranks exactly with common terms scored for the rarer terms’ candidates first (pruned, then completed)', () => {
    const random = generator(11);
    const accumulator = new Bm25Accumulator();
    for (let round = 0; round < 40; round++) {
      const size = 500 + Math.floor(random() * 4000);
      // One rare term (at most 1/16 of the documents) and up to three common ones (up to 90%), scores coarse
      // enough to tie; the rare term sometimes weighs less than the common ones together.
      const densities = [
        random() * 0.06,
        ...Array.from({ length: 1 + Math.floor(random() * 3) }, () => 0.1 + random() * 0.8),
      ];
      const terms = densities.map((density) => {
        const entries: Array<[number, number]> = [];
        const top = 0.5 + random() * 3;
        for (let doc = 0; doc < size; doc++) {
          if (random() < density) entries.push([doc, Math.ceil(random() * 8) * (top / 8)]);
        }
        return term(entries);
      });
      const weights = terms.map(() => 1 + Math.floor(random() * 2));
      accumulator.begin(size);
      terms.forEach((t, i) => accumulator.add(t, weights[i]));
      const sizes = [1 + Math.floor(random() * 20), 1 + Math.floor(random() * 200), size];
      // Told the first slice's size (as the index tells it) or not.
      expect(slices(accumulator, sizes, round % 2 === 0 ? sizes[0] : undefined)).toEqual(
        bruteForce(terms, weights),
      );
      accumulator.end();
    }
  });

  it('puts documents without the rare term first when the common terms outscore it', () => {
    const accumulator = new Bm25Accumulator();
    const size = 1000;
    // The rare term: 10 even documents at 1.0. Common terms: the 500 even documents at 0.9, the 500 odd ones at 1.0,
    // and 100 odd ones at 1.0 again.
    const rare = term(Array.from({ length: 10 }, (_, i): [number, number] => [i * 100, 1]));
    const b = term(Array.from({ length: 500 }, (_, i): [number, number] => [i * 2, 0.9]));
    const c = term(Array.from({ length: 500 }, (_, i): [number, number] => [i * 2 + 1, 1]));
    const both = term(Array.from({ length: 100 }, (_, i): [number, number] => [i * 10 + 1, 1]));
    const terms = [rare, b, c, both];
    accumulator.begin(size);
    terms.forEach((t) => accumulator.add(t, 1));
    const got = slices(accumulator, [5, 50]);
    expect(got).toEqual(bruteForce(terms, [1, 1, 1, 1]).slice(0, 55));
    // The best are documents the rare term does not contain (1.0 + 1.0 = 2.0 > 1.0 + 0.9).
    expect(got[0]).toEqual({ docNo: 1, score: 2 });
    accumulator.end();
  });
});
