import fc from 'fast-check';
import { BaseMetadata } from '../../../src/infrastructure/vectors/vector-partition';

/** A base's metadata for sorted, distinct chunk ids (items and expiry do not matter to the lookup). */
function metadataOf(ids: readonly number[]): BaseMetadata {
  const chunkIds = Float64Array.from(ids);
  return new BaseMetadata(chunkIds, new Float64Array(ids.length), new Float64Array(ids.length).fill(NaN));
}

/** Sorted distinct ids: dense runs, sparse ones and huge gaps, as read models' row ids can be. */
const sortedIds = fc
  .array(
    fc.oneof(
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 1, max: 1_000 }),
      fc.integer({ min: 1, max: 2 ** 40 }),
    ),
    { maxLength: 300 },
  )
  .chain((gaps) => fc.integer({ min: 1, max: 2 ** 20 }).map((first) => ({ first, gaps })))
  .map(({ first, gaps }) => {
    const ids: number[] = [];
    let id = first;
    for (const gap of gaps) {
      ids.push(id);
      id += gap;
    }
    return ids;
  });

describe('BaseMetadata.indexOf', () => {
  it('finds every id where it is, and no id that is absent (any spread of ids)', () => {
    fc.assert(
      fc.property(
        sortedIds,
        fc.array(fc.integer({ min: 0, max: 2 ** 45 }), { maxLength: 50 }),
        (ids, others) => {
          const metadata = metadataOf(ids);
          ids.forEach((id, at) => expect(metadata.indexOf(id)).toBe(at));
          const present = new Set(ids);
          for (const id of others) expect(metadata.indexOf(id)).toBe(present.has(id) ? ids.indexOf(id) : -1);
          // Just beside each present id: absent unless it is the next one.
          for (const id of ids.slice(0, 20)) {
            for (const near of [id - 1, id + 1]) {
              expect(metadata.indexOf(near)).toBe(present.has(near) ? ids.indexOf(near) : -1);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('answers for an empty base and a base of one', () => {
    expect(metadataOf([]).indexOf(1)).toBe(-1);
    expect(metadataOf([7]).indexOf(7)).toBe(0);
    expect(metadataOf([7]).indexOf(6)).toBe(-1);
    expect(metadataOf([7]).indexOf(8)).toBe(-1);
  });

  it('a dense million of ids is found in a probe or two, not a binary search', () => {
    const ids = Float64Array.from({ length: 1_000_000 }, (_, n) => 1 + n + Math.floor(n / 1000));
    let reads = 0;
    // Counts the reads of the ids (a Proxy over the column: the lookup's probes).
    const counted = new Proxy(ids, {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        // The typed array itself as receiver: its `length` getter refuses a proxy.
        return Reflect.get(target, key, target) as unknown;
      },
    });
    const metadata = new BaseMetadata(counted, new Float64Array(0), new Float64Array(0));
    for (const n of [0, 1, 999, 1000, 123_456, 500_000, 999_999]) {
      reads = 0;
      expect(metadata.indexOf(ids[n])).toBe(n);
      // Each interpolation probe reads the range's two ends and the probe (a binary search of a million: ~20).
      expect(reads).toBeLessThanOrEqual(9);
    }
  });
});
