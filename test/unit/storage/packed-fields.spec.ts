import fc from 'fast-check';
import { toStoredJson } from '../../../src/infrastructure/read-store/read-store-query';
import { packDocument, unpackDocument } from '../../../src/infrastructure/read-store/sqlite/packed-fields';
import type { ReadDocument } from '../../../src/infrastructure/read-store/read-store.port';

/** Field names the documents and the packed lists draw from (including ones a document lacks). */
const NAMES = ['chunks', 'content', 'title', 'summary', 'n', 'tags'] as const;

const json = fc.jsonValue({ maxDepth: 3 });
const doc = fc
  .record(
    Object.fromEntries(NAMES.map((name) => [name, fc.oneof(json, fc.constant(null))])) as Record<
      (typeof NAMES)[number],
      fc.Arbitrary<unknown>
    >,
    { requiredKeys: [] },
  )
  .chain((fields) => fc.shuffledSubarray(Object.keys(fields)).map((order) => ({ fields, order })))
  .map(({ fields, order }) => {
    const out: Record<string, unknown> = { id: 'd1' };
    for (const key of order) out[key] = (fields as Record<string, unknown>)[key];
    return out as ReadDocument;
  });

describe('packed fields of the embedded read store', () => {
  it('reads back every document as it was written, key order included, whatever fields are packed', () => {
    fc.assert(
      fc.property(doc, fc.subarray([...NAMES]), (written, packed) => {
        const stored = packDocument(written, packed, toStoredJson);
        const read = unpackDocument<ReadDocument>(stored.json, stored.packed);
        expect(JSON.stringify(read)).toBe(toStoredJson(written));
        // The row's JSON holds no packed value (null in its place), and packs only what was there.
        const row = JSON.parse(stored.json) as Record<string, unknown>;
        for (const field of packed) if (field in row) expect(row[field]).toBeNull();
        const anyPacked = packed.some((field) => written[field] !== undefined && written[field] !== null);
        expect(stored.packed !== null).toBe(anyPacked);
      }),
      { numRuns: 1000 },
    );
  });
});
