/**
 * Issue 20: deep, wide and odd bodies on every POST endpoint. Structural bounds are enforced before parsing
 * (422 `body_bound_exceeded` naming the bound, never a 500 from a stack overflow); NUL characters, lone surrogates
 * and `__proto__` / `constructor` / `prototype` keys are refused with a 422 naming the field; nothing is stored.
 */
import { JSON_BODY_BOUNDS } from '../../src/http/body-bounds';
import { nested, startHostileHarness, withField, type HostileHarness } from '../support/hostile-bodies';

const NAMES = ['search', 'save', 'proposals', 'usage', 'replies', 'feedback'];

/** A string field of each endpoint (usage has none). */
const TEXT_FIELD: Record<string, string | undefined> = {
  search: 'query',
  save: 'content',
  proposals: 'content',
  replies: 'idempotency_key',
  feedback: 'external_feedback_id',
};

function boundBody(bound: string, limit: number, message: string): unknown {
  return {
    ok: false,
    error: {
      code: 'body_bound_exceeded',
      message,
      details: [{ field: 'body', message, bound, limit }],
    },
  };
}

const DEPTH = `the JSON body nests arrays and objects deeper than ${JSON_BODY_BOUNDS.maxDepth} levels`;
const ITEMS = `a JSON array in the body has more than ${JSON_BODY_BOUNDS.maxArrayItems} items`;
const MEMBERS = `a JSON object in the body has more than ${JSON_BODY_BOUNDS.maxObjectMembers} members`;

describe('hostile bodies on every POST endpoint (issue 20)', () => {
  let h: HostileHarness;

  beforeAll(async () => {
    h = await startHostileHarness();
  });
  afterAll(async () => h.close());

  /** Posts `body` and expects status and body exactly, with nothing stored. */
  async function refused(name: string, body: string, status: number, expected: unknown): Promise<void> {
    const endpoint = h.endpoints.find((e) => e.name === name)!;
    const before = await h.head();
    const res = await h.post(endpoint, body);
    expect({ name, status: res.status, body: res.body }).toEqual({ name, status, body: expected });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await h.head()).toBe(before);
  }

  it('lists every POST endpoint', () => {
    expect(h.endpoints.map((e) => e.name)).toEqual(NAMES);
  });

  it.each(NAMES)(
    '%s: 3,000 nested arrays or objects are a 422 naming the depth bound, not a 500',
    async (name) => {
      const endpoint = h.endpoints.find((e) => e.name === name)!;
      await refused(name, withField(endpoint, nested(3000, 'array')), 422, boundBody('max_depth', 32, DEPTH));
      await refused(
        name,
        withField(endpoint, nested(3000, 'object')),
        422,
        boundBody('max_depth', 32, DEPTH),
      );
    },
  );

  it.each(NAMES)('%s: the depth bound is exact (32 levels pass the parser, 33 do not)', async (name) => {
    const endpoint = h.endpoints.find((e) => e.name === name)!;
    const atBound = await h.post(endpoint, withField(endpoint, nested(31, 'array')));
    expect(atBound.status).toBeLessThan(500);
    expect(atBound.body.error?.code).not.toBe('body_bound_exceeded');
    await refused(name, withField(endpoint, nested(32, 'array')), 422, boundBody('max_depth', 32, DEPTH));
  });

  it.each(NAMES)('%s: an array over 1,000 items or an object over 1,000 members is a 422', async (name) => {
    const endpoint = h.endpoints.find((e) => e.name === name)!;
    const items = `[${Array.from({ length: 1001 }, () => '0').join(',')}]`;
    const members = `{${Array.from({ length: 1001 }, (_, i) => `"k${i}":0`).join(',')}}`;
    await refused(name, withField(endpoint, items), 422, boundBody('max_array_items', 1000, ITEMS));
    await refused(name, withField(endpoint, members), 422, boundBody('max_object_members', 1000, MEMBERS));
    // Commas inside strings are not members.
    const commas = await h.post(endpoint, withField(endpoint, JSON.stringify(','.repeat(5000))));
    expect(commas.body.error?.code).not.toBe('body_bound_exceeded');
  });

  it.each(NAMES.filter((n) => TEXT_FIELD[n]))(
    '%s: a NUL character or a lone surrogate in a string is a 422 naming the field',
    async (name) => {
      const endpoint = h.endpoints.find((e) => e.name === name)!;
      const field = TEXT_FIELD[name]!;
      for (const [text, problem] of [
        ['"heron\\u0000pond"', 'must not contain NUL (U+0000) characters'],
        ['"heron\\ud800pond"', 'must not contain lone UTF-16 surrogates'],
        ['"heron\\udc00"', 'must not contain lone UTF-16 surrogates'],
      ]) {
        await refused(name, withField(endpoint, text!, field), 422, {
          ok: false,
          error: {
            code: 'validation_failed',
            message: `invalid request: ${field}`,
            details: [{ field, message: `${field} ${problem}` }],
          },
        });
      }
      // A well-formed pair (an emoji) is fine.
      const emoji = await h.post(endpoint, withField(endpoint, '"heron \\ud83e\\udda9"', field));
      expect(emoji.body.error?.details ?? []).not.toContainEqual(expect.objectContaining({ field }));
    },
  );

  it.each(NAMES)(
    '%s: __proto__, constructor and prototype keys are refused like unknown fields',
    async (name) => {
      const endpoint = h.endpoints.find((e) => e.name === name)!;
      for (const key of ['__proto__', 'constructor', 'prototype']) {
        await refused(name, withField(endpoint, '{"admin":true}', key), 422, {
          ok: false,
          error: {
            code: 'validation_failed',
            message: `invalid request: ${key}`,
            details: [{ field: key, message: `property ${key} should not exist` }],
          },
        });
      }
    },
  );

  it('a forbidden key or a NUL deep inside a free-form object names its path', async () => {
    const replies = h.endpoints.find((e) => e.name === 'replies')!;
    await refused('replies', withField(replies, '{"a":[{"prototype":1}]}'), 422, {
      ok: false,
      error: {
        code: 'validation_failed',
        message: 'invalid request: metadata.a.0.prototype',
        details: [{ field: 'metadata.a.0.prototype', message: 'property prototype should not exist' }],
      },
    });
    await refused('replies', withField(replies, '{"k\\u0000":1}'), 422, {
      ok: false,
      error: {
        code: 'validation_failed',
        message: 'invalid request: metadata.k\u0000',
        details: [
          {
            field: 'metadata.k\u0000',
            message: 'the key of metadata.k\u0000 must not contain NUL (U+0000) characters',
          },
        ],
      },
    });
  });
});
