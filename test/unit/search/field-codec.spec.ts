import fc from 'fast-check';
import type { FilterValue } from '../../../src/infrastructure/search/search-index.port';
import { decodeFields, encodeFields } from '../../../src/infrastructure/search/sqlite/field-codec';

/** A memory chunk's fields as the memory projection writes them (memory.projection.ts indexChunks). */
const chunkFields = (n: number): Record<string, FilterValue> => ({
  memory_item_id: n,
  memory_source_id: n,
  memory_chunk_id: n * 8 + 3,
  ordinal: 3,
  revision: 2,
  type: 'document',
  audience: 'customer_safe',
  authority_level: 'approved_source',
  visibility: 'organization_internal',
  owner_client_key: null,
  expires_at_ms: 1_798_761_600_000,
});

const key = fc.oneof(
  fc.constantFrom('memory_item_id', 'ordinal', 'audience', 'expires_at_ms', '__proto__', 'constructor', 'n'),
  fc.stringMatching(/^[a-z0-9_]{1,12}$/),
);
const value: fc.Arbitrary<FilterValue> = fc.oneof(
  fc.constantFrom('document', 'internal', 'tool_private', 'reference', '', '[0]', 'null'),
  fc.string(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);

describe('search fields as stored (field-codec.ts)', () => {
  it('gives back every field, value and key order (JSON of the result equals JSON of the input)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 14 }), (pairs) => {
        const fields: Record<string, FilterValue> = {};
        for (const [k, v] of pairs)
          Object.defineProperty(fields, k, { value: v, enumerable: true, writable: true });
        const decoded = decodeFields(encodeFields(fields));
        expect(JSON.stringify(decoded)).toBe(JSON.stringify(fields));
        expect(Object.keys(decoded)).toEqual(Object.keys(fields));
        expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
      }),
      { numRuns: 2_000 },
    );
  });

  it("stores a memory chunk's fields in ~40 bytes (JSONB took 216), in the same key order", () => {
    const fields = chunkFields(123_456);
    const stored = encodeFields(fields);
    expect(stored).toBe('[1,123456,123456,987651,3,2,[0],[3],[5],[8],null,1798761600000]');
    expect(decodeFields(stored)).toEqual(fields);
    expect(Object.keys(decodeFields(stored))).toEqual(Object.keys(fields));
    // The same keys in another order, or one more, are stored as pairs: the order is kept.
    const reordered = { ordinal: 3, memory_item_id: 7 };
    expect(encodeFields(reordered)).toBe('[0,3,3,0,7]');
    expect(Object.keys(decodeFields(encodeFields(reordered)))).toEqual(['ordinal', 'memory_item_id']);
    expect(decodeFields(encodeFields({ ...fields, hidden: true }))).toEqual({ ...fields, hidden: true });
    expect(encodeFields({})).toBe('[0]');
  });

  it('refuses stored values it did not write (a layout-8 JSON object, unknown indexes, bad shapes)', () => {
    for (const stored of [
      '{"memory_item_id":1}',
      '[2,1]',
      '[1,1,2]',
      '[0,"a"]',
      '[0,99,1]',
      '[0,"a",[99]]',
      '[0,"a",[0,1]]',
      '[0,"a",{"b":1}]',
      '[0,{},1]',
      'not json',
    ]) {
      expect(() => decodeFields(stored)).toThrow();
    }
    expect(() => decodeFields(Buffer.from('{}') as unknown as string)).toThrow(TypeError);
  });
});
