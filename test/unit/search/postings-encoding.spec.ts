import fc from 'fast-check';
import {
  BLOCK_SIZE,
  decodePostings,
  encodeNewPostings,
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

  it('encodes new documents\u2019 changes straight to the blob merging them into nothing would give, and refuses any other changes', () => {
    const posting = fc.tuple(fc.nat(20_000), fc.nat(70_000), fc.nat(70_000));
    fc.assert(
      fc.property(fc.array(posting, { maxLength: 700 }), fc.boolean(), (postings, removeOne) => {
        const changes = postings.flatMap(([doc, t, b]) => [doc, t, b]);
        if (removeOne && postings.length > 0) changes[1] = -1;
        const docs = postings.map(([doc]) => doc);
        const increasing = docs.every((doc, i) => i === 0 || doc > docs[i - 1]);
        const direct = encodeNewPostings(changes);
        if (postings.length === 0 || !increasing || removeOne) {
          expect(direct).toBeNull();
          return;
        }
        expect(direct).toEqual(encodePostings(mergePostings(null, changes)));
      }),
      { numRuns: 300 },
    );
    // Increasing runs (what new documents make) are the case that matters: generate them directly too.
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 300 }), fc.nat(70_000), fc.nat(3)), { maxLength: 700 }),
        (steps) => {
          let doc = -1;
          const changes = steps.flatMap(([gap, t, b]) => [(doc += gap), t, b]);
          const direct = encodeNewPostings(changes);
          expect(direct).toEqual(steps.length === 0 ? null : encodePostings(mergePostings(null, changes)));
          if (direct !== null) expect(decodePostings(direct).count).toBe(steps.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('returns blobs that later encodes do not change (the writers are reused)', () => {
    const first = encodeNewPostings([1, 2, 3, 5, 0, 1]);
    const copy = Buffer.from(first as Buffer);
    encodeNewPostings(Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? i : 7)));
    expect(first).toEqual(copy);
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
