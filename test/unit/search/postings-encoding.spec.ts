import fc from 'fast-check';
import {
  BLOCK_SIZE,
  decodePostings,
  encodePostings,
  mergePostings,
  type DecodedPostings,
} from '../../../src/infrastructure/search/sqlite/postings';

function plain(p: DecodedPostings): Array<[number, number, number]> {
  return Array.from(p.docs, (doc, i) => [doc, p.titleTf[i], p.bodyTf[i]]);
}

describe('compressed posting lists', () => {
  it('decode what was encoded, across blocks, and merge changes with the last change of a document winning', () => {
    const posting = fc.tuple(fc.nat(4095), fc.nat(70_000), fc.nat(70_000));
    fc.assert(
      fc.property(
        fc.array(posting, { maxLength: 600 }),
        fc.array(posting, { maxLength: 300 }),
        (base, more) => {
          const byDoc = new Map<number, [number, number]>();
          for (const [doc, t, b] of base) byDoc.set(doc, [t, b]);
          const initial = mergePostings(
            null,
            [...byDoc].flatMap(([doc, [t, b]]) => [doc, t, b]),
          );
          const stored = encodePostings(initial);
          const decoded = stored === null ? null : decodePostings(stored);
          expect(decoded === null ? [] : plain(decoded)).toEqual(plain(initial));
          // Changes: odd title tf removes the document (as −1), in any order.
          const changes = more.flatMap(([doc, t, b]) => (t % 2 === 1 ? [doc, -1, 0] : [doc, t, b]));
          for (let i = 0; i < changes.length; i += 3) {
            if (changes[i + 1] < 0) byDoc.delete(changes[i]);
            else byDoc.set(changes[i], [changes[i + 1], changes[i + 2]]);
          }
          const merged = mergePostings(decoded, changes);
          const expected = [...byDoc]
            .sort(([a], [b]) => a - b)
            .map(([doc, [t, b]]): [number, number, number] => [
              doc,
              Math.min(t, 0xffff),
              Math.min(b, 0xffff),
            ]);
          expect(plain(merged)).toEqual(expected);
          const again = encodePostings(merged);
          expect(again === null ? [] : plain(decodePostings(again))).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('costs about three bytes a posting for dense small frequencies', () => {
    const count = 20 * BLOCK_SIZE;
    const docs = Int32Array.from({ length: count }, (_, i) => 2 * i);
    const list = { count, docs, titleTf: new Uint16Array(count), bodyTf: new Uint16Array(count).fill(3) };
    const bytes = encodePostings(list)?.length ?? 0;
    expect(bytes).toBeLessThan(3.2 * count);
  });

  it('rejects a truncated blob', () => {
    const list = {
      count: 2,
      docs: Int32Array.from([5, 900]),
      titleTf: Uint16Array.from([1, 0]),
      bodyTf: Uint16Array.from([2, 7]),
    };
    const blob = encodePostings(list) as Buffer;
    expect(() => decodePostings(blob.subarray(0, blob.length - 1))).toThrow(/corrupt posting list/);
  });
});
