import fc from 'fast-check';
import { bm25, termWeighting } from '../../../src/infrastructure/search/sqlite/bm25';
import { computeBlockMaxima } from '../../../src/infrastructure/search/sqlite/block-maxima';
import { scorePostings } from '../../../src/infrastructure/search/sqlite/dense-sums';
import { MaxScoreRanker, RankedMatches } from '../../../src/infrastructure/search/sqlite/max-score';
import {
  BLOCK_SIZE,
  decodePostings,
  PARTITION_SIZE,
} from '../../../src/infrastructure/search/sqlite/postings';
import { BlockCursor, END, readTermBlocks } from '../../../src/infrastructure/search/sqlite/term-blocks';
import { seededRandom } from '../../../bench/synthetic-text';
import { bruteForce, type Corpus, corpus, type Posting, ranker, stored } from './ranking-corpus';

describe('embedded BM25 scoring', () => {
  it('scores a posting as idf · tf / (tf + k1 · (1 − b + b · length / avgLength)), title and body as one field', () => {
    const stats = { documents: 10, titleTokens: 20, bodyTokens: 180 };
    const idf = Math.log(1 + (10 - 1 + 0.5) / (1 + 0.5));
    const flat = termWeighting(1, stats, 1);
    expect(bm25(flat, 1 + 2, 2 + 18)).toBeCloseTo((idf * 3) / (3 + 0.9 * (1 - 0.4 + (0.4 * 20) / 20)), 12);
    // Title weight 2: the title's tf and length count twice, so does the average title length.
    const boosted = termWeighting(1, stats, 2);
    expect(bm25(boosted, 2 * 1 + 2, 2 * 2 + 18)).toBeCloseTo(
      (idf * 4) / (4 + 0.9 * (1 - 0.4 + (0.4 * 22) / 22)),
      12,
    );
    expect(bm25(boosted, 0, 10)).toBe(0);
  });
});

describe('a term’s stored blocks read from their headers', () => {
  it('index every block of every row and decode, a block at a time, what was encoded', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(3 * PARTITION_SIZE), { minLength: 1, maxLength: 1500 }),
        fc.integer(),
        (docs, seed) => {
          const random = seededRandom(seed);
          const postings = docs
            .sort((a, b) => a - b)
            .map((doc): Posting => [doc, Math.floor(random() * 3), 1 + Math.floor(random() * 300)]);
          const blocks = stored(postings);
          expect(blocks.df).toBe(postings.length);
          const rows = blocks.rows.map((row) => decodePostings(row).count);
          expect(blocks.blockCount).toBe(rows.reduce((n, count) => n + Math.ceil(count / BLOCK_SIZE), 0));
          // Walked posting by posting.
          const cursor = new BlockCursor(blocks);
          const walked: Posting[] = [];
          for (let doc = cursor.doc; doc !== END; doc = cursor.next())
            walked.push([doc, cursor.titleTf(), cursor.bodyTf()]);
          expect(walked).toEqual(postings);
          // Jumped: each target lands on the first posting at or after it; headers bound the tfs of their block.
          cursor.reset();
          for (let target = 0; target <= 3 * PARTITION_SIZE + 1; target += 1 + Math.floor(random() * 700)) {
            const expected = postings.find(([doc]) => doc >= target);
            expect(cursor.advance(target)).toBe(expected?.[0] ?? END);
            if (expected === undefined) break;
            expect([cursor.titleTf(), cursor.bodyTf()]).toEqual([expected[1], expected[2]]);
            expect(blocks.maxTitle[cursor.block]).toBeGreaterThanOrEqual(expected[1]);
            expect(blocks.maxBody[cursor.block]).toBeGreaterThanOrEqual(expected[2]);
            expect(blocks.last[cursor.block]).toBeGreaterThanOrEqual(expected[0]);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuse a corrupt row', () => {
    const good = stored(Array.from({ length: 300 }, (_, i): Posting => [i * 3, 0, 1])).rows[0];
    expect(() => readTermBlocks([good.subarray(0, good.length - 1)])).toThrow(/corrupt posting list/);
    expect(() => readTermBlocks([Buffer.concat([good, Buffer.from([0])])])).toThrow(/corrupt posting list/);
    // A body byte changed: the block decodes to another last document than its header says.
    const bad = Buffer.from(good);
    bad[8] ^= 0x01;
    const cursor = new BlockCursor(readTermBlocks([good]));
    expect(cursor.doc).toBe(0);
    expect(() => new BlockCursor(readTermBlocks([bad]))).toThrow(/corrupt posting list/);
  });

  it('refuse a row whose header varints are cut short or longer than five bytes', () => {
    expect(() => readTermBlocks([Buffer.from([0x85])])).toThrow(/truncated varint/);
    // Count 1, then a block header whose first varint (the last document) never ends within the row.
    expect(() => readTermBlocks([Buffer.from([0x01, 0x81, 0x82])])).toThrow(/truncated varint/);
    expect(() => readTermBlocks([Buffer.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x01])])).toThrow(
      /varint too long/,
    );
    // Five bytes is the longest a varint can take: 2^28, read as such, and refused as a count (a row is one
    // partition of PARTITION_SIZE documents), before any array is sized by it.
    expect(() => readTermBlocks([Buffer.from([0x80, 0x80, 0x80, 0x80, 0x01])])).toThrow(
      /more postings than a partition has documents/,
    );
    expect(() => readTermBlocks([Buffer.from([0x81, 0x20])])).toThrow(/more postings than a partition/);
  });
});

describe('MaxScore ranking over blocks', () => {
  it('ranks exactly as summing every posting in query order, ties by the lower document number, slice by slice', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 200, max: 3 * PARTITION_SIZE }),
        fc.array(
          fc.oneof(
            fc.double({ min: 0.0005, max: 0.02, noNaN: true }),
            fc.double({ min: 0.05, max: 0.95, noNaN: true }),
          ),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        fc.constantFrom(0, 1, 1.5, 2),
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 4 }),
        (seed, size, densities, w, slices) => {
          const random = seededRandom(seed);
          const c = corpus(random, size, densities);
          const weights = densities.map(() => 1 + Math.floor(random() * 3));
          const expected = bruteForce(c, weights, w);
          // Both paths: document at a time with pruning, and every posting added up (few postings), from the
          // blocks or from scores kept for this title weight (or for another one, which must not be used).
          // Document at a time, blocks bounded by their headers, by their exact maxima (from the blocks or from
          // kept scores), or by maxima computed under another title weight (which must not be used).
          // Window by window and document at a time.
          const paths: Array<[number, number | undefined, number | undefined, 'windows' | 'documents']> = [
            [0, undefined, undefined, 'windows'],
            [0, undefined, w, 'windows'],
            [0, w, w, 'windows'],
            [0, undefined, w + 1, 'windows'],
            [0, undefined, undefined, 'documents'],
            [0, undefined, w, 'documents'],
            [0, undefined, w + 1, 'documents'],
            [Infinity, undefined, undefined, 'windows'],
            [Infinity, w, undefined, 'windows'],
            [Infinity, w + 1, undefined, 'windows'],
          ];
          for (const [dense, scoredFor, maximaFor, order] of paths) {
            const make = () => ranker(c, weights, w, dense, scoredFor, maximaFor, order);
            const matches = new RankedMatches(make());
            const got = slices.flatMap((n) => matches.next(n));
            expect(got).toEqual(expected.slice(0, got.length));
            expect(got.length).toBe(
              Math.min(
                expected.length,
                slices.reduce((a, b) => a + b, 0),
              ),
            );
            // And the first slice alone, from a fresh ranker.
            expect(make().top(slices[0])).toEqual(expected.slice(0, slices[0]));
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it('decodes few blocks of a common term when a rare one decides the best matches (document at a time)', () => {
    const random = seededRandom(5);
    // 12,000 documents: a rare term in 40 of them, a common one in 90%.
    const c = corpus(random, 12_000, [0.9, 40 / 12_000]);
    const ranked = ranker(c, [1, 1], 1, 0, undefined, undefined, 'documents');
    const top = ranked.top(10);
    expect(top).toEqual(bruteForce(c, [1, 1], 1).slice(0, 10));
    const common = stored(c.terms[0]);
    const [commonDecoded, rareDecoded] = ranked.decodedBlocks;
    expect(rareDecoded).toBe(stored(c.terms[1]).blockCount);
    // At most one block per rare document (and the first block, decoded to start), out of about 85.
    expect(common.blockCount).toBeGreaterThan(80);
    expect(commonDecoded).toBeLessThanOrEqual(41);
  });

  it('skips the blocks of the only essential term that cannot reach the best, and no block that can (document at a time)', () => {
    // 4,096 documents of equal length. The rare term: in the first 2,048 (16 blocks), tf 1, except documents 10, 20
    // and 30 (block 0) with tf 6 and one document with tf 8 in each of the blocks 6, 8 and 9. The common term: in
    // every document, tf 1 (its bound is tiny).
    const size = PARTITION_SIZE;
    const lengths = {
      title: new Uint16Array(size),
      body: new Uint32Array(size).fill(20),
      keys: new Float64Array(size).fill(-1),
      expiry: new Float64Array(size).fill(NaN),
    };
    const stats = { documents: size, titleTokens: 0, bodyTokens: 20 * size };
    const best = [6, 8, 9].map((b) => b * BLOCK_SIZE + 17);
    const tf = (doc: number) => (best.includes(doc) ? 8 : [10, 20, 30].includes(doc) ? 6 : 1);
    const rare = Array.from({ length: size / 2 }, (_, i): Posting => [i, 0, tf(i)]);
    const common = Array.from({ length: size }, (_, i): Posting => [i, 0, 1]);
    const c: Corpus = { lengths, stats, terms: [common, rare] };
    const ranked = ranker(c, [1, 1], 1, 0, undefined, undefined, 'documents');
    const top = ranked.top(3);
    expect(top.map(({ docNo }) => docNo)).toEqual(best);
    expect(top).toEqual(bruteForce(c, [1, 1], 1).slice(0, 3));
    // Decoded: block 0, block 1 (the next posting), then 6 (2–5 skipped), 7 (the next posting), 8 (skipped to from
    // 7, the block right after it), 9 and 10 (the next postings); then 11–15 skipped.
    expect(ranked.decodedBlocks[1]).toBe(7);
  });

  it('bounds each block by its postings’ highest score once the maxima are computed, and scores fewer documents', () => {
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(0, 1, 2), (seed, w) => {
        const c = corpus(seededRandom(seed), 2 * PARTITION_SIZE, [0.3, 0.05]);
        c.terms.forEach((postings) => {
          const blocks = stored(postings);
          const weighting = termWeighting(blocks.df, c.stats, w);
          const score = ([doc, title, body]: Posting) =>
            bm25(weighting, w * title + body, w * c.lengths.title[doc] + c.lengths.body[doc]);
          // Each block's maximum is the highest score of its postings, computed as ranking computes scores.
          let at = 0;
          const expected = Array.from({ length: blocks.blockCount }, (_, b) => {
            const block = postings.slice(at, (at += blocks.count[b]));
            return Math.max(0, ...block.map(score));
          });
          expect([...computeBlockMaxima(blocks, weighting, c.lengths).scores]).toEqual(expected);
          // The same from kept scores (no decoding), and never from scores kept for another title weight.
          blocks.scored = scorePostings(blocks, weighting, c.lengths);
          expect([...computeBlockMaxima(blocks, weighting, c.lengths).scores]).toEqual(expected);
          const other = termWeighting(blocks.df, c.stats, w + 1);
          expect([...computeBlockMaxima(blocks, other, c.lengths).scores]).toEqual([
            ...computeBlockMaxima(stored(postings), other, c.lengths).scores,
          ]);
        });
      }),
      { numRuns: 20 },
    );
    // Lengths from 5 to 55 and the shortest document 5 long: the headers bound every block by a length-5 document.
    const c = corpus(seededRandom(3), 3 * PARTITION_SIZE, [0.5, 0.2, 0.05]);
    const byHeaders = ranker(c, [1, 1, 1], 1);
    const byMaxima = ranker(c, [1, 1, 1], 1, 0, undefined, 1);
    const expected = bruteForce(c, [1, 1, 1], 1).slice(0, 10);
    expect(byHeaders.top(10)).toEqual(expected);
    expect(byMaxima.top(10)).toEqual(expected);
    expect(byMaxima.scoredDocuments).toBeLessThan(byHeaders.scoredDocuments);
    // Maxima computed under other statistics (a smaller collection: every idf lower) bound nothing for this one.
    const stale = c.terms.map((postings) => {
      const blocks = stored(postings);
      const smaller = { ...c.stats, documents: Math.ceil(c.stats.documents / 2) };
      blocks.maxima = computeBlockMaxima(blocks, termWeighting(blocks.df, smaller, 1), c.lengths);
      return { blocks, weight: 1 };
    });
    expect(
      new MaxScoreRanker(stale, c.lengths, c.stats, 1, { densePostings: 0, densePerWindow: 0 }).top(10),
    ).toEqual(expected);
  });

  it('ranks equal scores by the lower document number whichever term brings a document first', () => {
    // Two terms of equal document frequency in documents of equal length: four equal scores. Added densely term
    // by term, documents 10 and 20 come before 5 and 30; the best two are still 5 and 10.
    const size = 40;
    const lengths = {
      title: new Uint16Array(size),
      body: new Uint32Array(size).fill(10),
      keys: new Float64Array(size).fill(-1),
      expiry: new Float64Array(size).fill(NaN),
    };
    const c: Corpus = {
      lengths,
      stats: { documents: size, titleTokens: 0, bodyTokens: 10 * size },
      terms: [
        [
          [10, 0, 1],
          [20, 0, 1],
        ],
        [
          [5, 0, 1],
          [30, 0, 1],
        ],
      ],
    };
    for (const [dense, order] of [
      [0, 'windows'],
      [0, 'documents'],
      [Infinity, 'windows'],
    ] as const) {
      expect(
        ranker(c, [1, 1], 1, dense, undefined, undefined, order)
          .top(2)
          .map(({ docNo }) => docNo),
      ).toEqual([5, 10]);
    }
  });

  it('starts each ranking from the first posting, and leaves out documents no term matched', () => {
    const c = corpus(seededRandom(9), 500, [0.02, 0.01]);
    const all = bruteForce(c, [1, 2], 1);
    for (const [dense, order] of [
      [0, 'windows'],
      [0, 'documents'],
      [Infinity, 'windows'],
    ] as const) {
      const ranked = ranker(c, [1, 2], 1, dense, undefined, undefined, order);
      expect(ranked.top(1000)).toEqual(all);
      expect(ranked.top(3)).toEqual(all.slice(0, 3));
      expect(ranked.top(1000)).toEqual(all);
    }
    const matched = new Set(c.terms.flat().map(([doc]) => doc));
    expect(all.every(({ docNo }) => matched.has(docNo))).toBe(true);
    expect(new MaxScoreRanker([], c.lengths, c.stats, 1).top(10)).toEqual([]);
  });
});
