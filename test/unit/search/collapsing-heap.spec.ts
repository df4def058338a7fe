import fc from 'fast-check';
import { CollapsingHeap } from '../../../src/infrastructure/search/sqlite/top-matches';

/** The best `k` values by their best offered document (score > 0, not excluded): score descending, then document. */
function model(
  offers: Array<{ doc: number; score: number }>,
  keys: Float64Array,
  excluded: Set<number>,
  k: number,
  excludedKeys: Set<number> = new Set(),
): Array<{ docNo: number; score: number }> {
  const best = new Map<number, { docNo: number; score: number }>();
  for (const { doc, score } of offers) {
    if (!(score > 0) || excluded.has(doc) || excludedKeys.has(keys[doc])) continue;
    const value = keys[doc] >= 0 ? keys[doc] : -(doc + 1);
    const kept = best.get(value);
    if (kept === undefined || score > kept.score || (score === kept.score && doc < kept.docNo))
      best.set(value, { docNo: doc, score });
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.docNo - b.docNo).slice(0, k);
}

describe('CollapsingHeap', () => {
  it('keeps the best document of each of the k best values, whatever the order of the offers', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: -1, max: 6 }), { minLength: 1, maxLength: 60 }),
        fc.array(fc.record({ doc: fc.nat(59), score: fc.constantFrom(0, 0.5, 1, 1, 2, 3, 3, 4.25, 7) }), {
          maxLength: 120,
        }),
        fc.array(fc.nat(59), { maxLength: 10 }),
        fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }),
        (k, values, offers, excludedDocs, excludedValues) => {
          const keys = Float64Array.from({ length: 60 }, (_, doc) => values[doc % values.length]);
          const excluded = new Set(excludedDocs);
          const excludedKeys = new Set(excludedValues);
          const heap = new CollapsingHeap(k, keys, excluded, excludedKeys);
          for (const { doc, score } of offers) heap.offer(score, doc);
          expect(heap.drain()).toEqual(model(offers, keys, excluded, k, excludedKeys));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('lets a value it turned out back in with a better document', () => {
    const keys = Float64Array.from([10, 11, 12, 10]);
    const heap = new CollapsingHeap(2, keys);
    heap.offer(1, 0);
    heap.offer(2, 1);
    heap.offer(3, 2); // value 10 leaves
    heap.offer(4, 3); // and comes back, value 11 leaves
    expect(heap.drain()).toEqual([
      { docNo: 3, score: 4 },
      { docNo: 2, score: 3 },
    ]);
  });
});
