import fc from 'fast-check';
import { canonicalize as rfc8785 } from 'json-canonicalize';
import {
  canonicalJson,
  referenceCanonicalJson,
} from '../../../src/infrastructure/event-store/canonical-json';

/**
 * Keys with the awkward parts: integer-like ones (an object enumerates them first, numerically), `__proto__`, keys
 * that sort differently by code unit than by code point or locale, escapes and lone surrogates.
 */
const keys = fc.oneof(
  fc.constantFrom('0', '1', '9', '10', '01', '-1', '4294967295', '1e3', '__proto__', 'constructor'),
  fc.constantFrom('a', 'B', 'é', 'e\u0301', '😀', '\uff61', '\ud800', '\udfff', '"', '\\', '\u0000', ''),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

const numbers = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(0, -0, 1e21, 1e-7, 5e-324, 1.7976931348623157e308, 0.1 + 0.2, 2 ** 53, 4.088710869828094),
);

/** JSON values as a JSON round trip leaves them (what appends hash). */
const jsonValues = fc
  .letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      numbers,
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.array(tie('value'), { maxLength: 6 }),
      fc.dictionary(keys, tie('value'), { maxKeys: 6 }),
    ),
  }))
  .value.map((value) => JSON.parse(JSON.stringify(value)) as unknown);

describe('canonical JSON (the hash chain writes it)', () => {
  it('writes what the reference serializer and a general RFC 8785 implementation write', () => {
    fc.assert(
      fc.property(jsonValues, (value) => {
        const fast = canonicalJson(value);
        expect(fast).toBe(referenceCanonicalJson(value));
        expect(fast).toBe(rfc8785(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('writes integer-like keys and __proto__ in code-unit order (left to the reference)', () => {
    const value = JSON.parse('{"b":1,"10":2,"9":3,"__proto__":4,"a":[{"2":0,"1":1}]}') as unknown;
    expect(canonicalJson(value)).toBe('{"10":2,"9":3,"__proto__":4,"a":[{"1":1,"2":0}],"b":1}');
    expect(canonicalJson(value)).toBe(rfc8785(value));
  });

  it('a search trace as stored: arrays of numbers written as they are, keys sorted at every level', () => {
    const trace = {
      trace_id: 76024,
      result_columns: {
        scores: [13.605190154789693, -0, 1e-7],
        memory_item_ids: [1662, 47],
        methods: ['lexical'],
      },
      limit: 100,
      nested: [[{ z: 1, a: 2 }], []],
    };
    expect(canonicalJson(trace)).toBe(
      '{"limit":100,"nested":[[{"a":2,"z":1}],[]],"result_columns":{"memory_item_ids":[1662,47],' +
        '"methods":["lexical"],"scores":[13.605190154789693,0,1e-7]},"trace_id":76024}',
    );
  });

  it('refuses what JSON cannot hold, as the reference does: non-finite numbers, cycles, bigints', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow();
    expect(() => canonicalJson({ list: [1, Number.POSITIVE_INFINITY] })).toThrow();
    expect(() => canonicalJson({ n: 1n })).toThrow();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
    const cyclicList: unknown[] = [];
    cyclicList.push({ list: cyclicList });
    expect(() => canonicalJson(cyclicList)).toThrow(TypeError);
  });

  it('values a JSON round trip would change are written as the reference writes them', () => {
    const date = new Date('2026-11-29T10:00:00.000Z');
    for (const value of [
      { at: date },
      { a: undefined, b: 1 },
      [undefined, 1],
      new Map([[1, 2]]),
      { toJSON: () => 'x' },
    ]) {
      expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
    }
  });
});
