/**
 * Issue 20, property: deep, wide and odd bodies on every POST endpoint are answered 2xx or 4xx, never 5xx, always
 * in JSON; a refusal (4xx) stores nothing. Generated with fast-check (a fixed seed per run is printed on failure).
 */
import fc from 'fast-check';
import { nested, startHostileHarness, withField, type HostileHarness } from '../support/hostile-bodies';

/** Odd strings: NUL, lone surrogates, zero-width and control characters, long runs. */
const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', '\ud800', '\udfff', 'a\u200bb', '\u202e', '\\', '"', '\uffff', ''),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

const oddKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', '', '\u0000', 'a.b'),
  oddString,
);

/** Any JSON value, with odd keys and strings, up to a modest depth. */
const oddValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    ),
    oddString,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(oddKey, tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** A field value as JSON text: deep, wide or odd. */
const hostileJson = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: 5000 }), fc.constantFrom('array' as const, 'object' as const))
    .map(([depth, kind]) => nested(depth, kind)),
  fc
    .tuple(fc.integer({ min: 0, max: 3000 }), fc.constantFrom('0', '"x"', '{}', '[]', 'null'))
    .map(([n, item]) => `[${Array.from({ length: n }, () => item).join(',')}]`),
  fc
    .integer({ min: 0, max: 3000 })
    .map((n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`),
  oddValue.map((v) => JSON.stringify(v)),
);

describe('property: no body gets a 5xx, and a refusal stores nothing (issue 20)', () => {
  let h: HostileHarness;

  beforeAll(async () => {
    h = await startHostileHarness();
  });
  afterAll(async () => h.close());

  it('every POST endpoint, deep, wide and odd values in its free-form field or any field', async () => {
    const endpointAndField = fc.integer({ min: 0, max: h.endpoints.length - 1 }).chain((i) => {
      const endpoint = h.endpoints[i]!;
      return fc.tuple(fc.constant(endpoint), fc.constantFrom(endpoint.field, ...Object.keys(endpoint.valid)));
    });
    await fc.assert(
      fc.asyncProperty(endpointAndField, hostileJson, async ([endpoint, field], json) => {
        const before = await h.head();
        const res = await h.post(endpoint, withField(endpoint, json, field));
        expect(res.status).toBeLessThan(500);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        if (res.status >= 400) {
          expect(res.body).toEqual({
            ok: false,
            error: { code: expect.any(String), message: expect.any(String), details: expect.any(Array) },
          });
          expect(await h.head()).toBe(before);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('whole bodies of any JSON shape, at the top level', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: h.endpoints.length - 1 }),
        fc.oneof(
          hostileJson,
          oddValue.map((v) => JSON.stringify(v)),
        ),
        async (i, json) => {
          const before = await h.head();
          const res = await h.post(h.endpoints[i]!, json);
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(await h.head()).toBe(before);
        },
      ),
      { numRuns: 200 },
    );
  });
});
