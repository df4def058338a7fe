import fc from 'fast-check';
import { PARTITION_SIZE } from '../../../src/infrastructure/search/sqlite/postings';
import { seededRandom } from '../../../bench/synthetic-text';
import { bruteForce, corpus, ranker } from './ranking-corpus';

describe('MaxScore ranking, collapsed', () => {
  it('collapsed: the best match of each of the k best values, excluded documents and values left out, exactly', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 200, max: 2 * PARTITION_SIZE }),
        fc.array(
          fc.oneof(
            fc.double({ min: 0.0005, max: 0.02, noNaN: true }),
            fc.double({ min: 0.05, max: 0.95, noNaN: true }),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        fc.constantFrom(1, 2),
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 0.3, noNaN: true }),
        (seed, size, densities, w, k, exclude) => {
          const random = seededRandom(seed);
          const c = corpus(random, size, densities);
          // Values: runs of 1–12 consecutive documents (an item's chunks), some scattered, some documents none.
          const keys = c.lengths.keys;
          for (let doc = 0, value = 0; doc < size; value++) {
            const run = 1 + Math.floor(random() * 12);
            for (let i = 0; i < run && doc < size; i++, doc++) keys[doc] = value;
          }
          for (let doc = 0; doc < size; doc++) {
            const r = random();
            if (r < 0.05) keys[doc] = -1;
            else if (r < 0.1) keys[doc] = Math.floor(random() * (size / 6));
          }
          const excluded = new Set<number>();
          for (let doc = 0; doc < size; doc++) if (random() < exclude) excluded.add(doc);
          // Excluded values (SearchQuery.collapse.excluded_values): none, or some of the values in use.
          const excludedKeys = new Set<number>();
          if (random() < 0.7)
            for (const key of keys) if (key >= 0 && random() < exclude) excludedKeys.add(key);
          // Documents every ranking skips (MaxScoreRanker.skip: expired ones), or none.
          const skipped = new Set<number>();
          if (random() < 0.5) for (let doc = 0; doc < size; doc++) if (random() < exclude) skipped.add(doc);
          const weights = densities.map(() => 1 + Math.floor(random() * 3));
          const seen = new Set<number>();
          const expected = bruteForce(c, weights, w)
            .filter(({ docNo }) => !excluded.has(docNo) && !excludedKeys.has(keys[docNo]))
            .filter(({ docNo }) => !skipped.has(docNo))
            .filter(({ docNo }) => {
              const value = keys[docNo] >= 0 ? keys[docNo] : -(docNo + 1);
              if (seen.has(value)) return false;
              seen.add(value);
              return true;
            })
            .slice(0, k);
          for (const [dense, scoredFor, order] of [
            [0, undefined, 'windows'],
            [0, undefined, 'documents'],
            [Infinity, undefined, 'windows'],
            [Infinity, w, 'windows'],
          ] as Array<[number, number | undefined, 'windows' | 'documents']>) {
            const ranking = ranker(c, weights, w, dense, scoredFor, undefined, order);
            if (skipped.size > 0) ranking.skip = (doc) => skipped.has(doc);
            expect(ranking.top(k, Infinity, -1, { keys, excluded, excludedKeys })).toEqual(expected);
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it('scores any documents exactly as ranking does (0 where no term is)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 50, max: 2 * PARTITION_SIZE }), (seed, size) => {
        const random = seededRandom(seed);
        const c = corpus(random, size, [0.01, 0.3, 0.8]);
        const weights = [1, 2, 1];
        const all = new Map(bruteForce(c, weights, 2).map(({ docNo, score }) => [docNo, score]));
        const docs = Int32Array.from({ length: size }, (_, doc) => doc).filter(() => random() < 0.2);
        const scores = ranker(c, weights, 2).scoreDocs(docs);
        expect(Array.from(scores)).toEqual(Array.from(docs, (doc) => all.get(doc) ?? 0));
      }),
      { numRuns: 40 },
    );
  });
});

describe('MaxScore ranking, documents left out', () => {
  /** 100 documents of item 1 that outrank one document of item 2, each in one term (the document-at-a-time path). */
  function corpusOf() {
    const size = 101;
    const lengths = {
      title: new Uint16Array(size),
      body: new Uint32Array(size).fill(10),
      keys: new Float64Array(size).fill(1),
      expiry: new Float64Array(size).fill(NaN),
    };
    lengths.keys[100] = 2;
    const postings = Array.from({ length: size }, (_, doc): [number, number, number] => [
      doc,
      0,
      doc < 100 ? 5 : 1,
    ]);
    return { lengths, stats: { documents: size, titleTokens: 0, bodyTokens: 10 * size }, terms: [postings] };
  }

  it.each([
    [
      'excluded values',
      (r: ReturnType<typeof ranker>, keys: Float64Array) =>
        r.top(1, Infinity, -1, { keys, excluded: new Set(), excludedKeys: new Set([1]) }),
    ],
    [
      'skipped documents',
      (r: ReturnType<typeof ranker>, keys: Float64Array) => {
        r.skip = (doc) => doc < 100;
        return r.top(1, Infinity, -1, { keys, excluded: new Set() });
      },
    ],
  ])('%s are never scored, not only kept out of the heap', (_, rank) => {
    const c = corpusOf();
    const r = ranker(c, [1], 1, 0);
    expect(rank(r, c.lengths.keys).map((match) => match.docNo)).toEqual([100]);
    expect(r.scoredDocuments).toBe(1);
    // Without: every document scored (the heap turns the first 100 away, so nothing lifts its floor).
    r.skip = null;
    expect(r.top(1, Infinity, -1, { keys: c.lengths.keys, excluded: new Set() }).map((m) => m.docNo)).toEqual(
      [0],
    );
    expect(r.scoredDocuments).toBeGreaterThan(1);
  });
});
