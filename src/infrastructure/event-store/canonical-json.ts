import { configure } from 'safe-stable-stringify';

/**
 * RFC 8785 canonical JSON for the JSON values events hold (appends normalize data and metadata through a JSON
 * round trip first): keys sorted by UTF-16 code units, ECMAScript number and string serialization, no
 * whitespace. safe-stable-stringify writes exactly that, about 2.4 times faster than a general RFC 8785 library;
 * test/unit/storage/hash-chain.spec.ts compares the two on generated values and pins a hash. Anything that is not
 * JSON (NaN, a cycle, a bigint) throws instead of being written some other way.
 */
const reference = configure({
  deterministic: true,
  strict: true,
  circularValue: TypeError,
  bigint: false,
});

/** A value the fast path leaves to the reference serializer. */
const NOT_PLAIN = Symbol('not plain JSON');

/**
 * Keys an object enumerates first, in numeric order, whatever order they were added in (ECMAScript's integer
 * indices): a copy with sorted keys cannot put them in code-unit order ("10" before "9").
 */
const INDEX_KEY = /^(?:0|[1-9][0-9]*)$/;

/** Deeper than this the fast path gives up (a cycle, or nesting no event has): the reference decides. */
const MAX_DEPTH = 512;

/**
 * The canonical JSON of `value`, as `reference` writes it. Plain JSON data (what a JSON round trip gives: null,
 * booleans, finite numbers, strings, arrays and plain objects, none with an integer-like key or `__proto__`) is
 * copied with its objects' keys in sorted order and written by JSON.stringify, whose number and string
 * serialization is the one RFC 8785 prescribes; arrays of numbers and strings are not copied. A recall trace of a
 * 100-result search (~5 KB of ids and scores) took 33–52 µs instead of 47–91 in tight loops; in the search server,
 * writing a limit-10 search's trace and hashing it (a flat string: no concatenated one to flatten first) took ~45 µs
 * less CPU (CPU profiles). Anything else (a value the reference refuses or writes its own way) goes to the reference
 * as a whole.
 * test/unit/storage/canonical-json.spec.ts compares the two on generated values.
 */
export function canonicalJson(value: unknown): string | undefined {
  const sorted = sortedCopy(value, 0);
  return sorted === NOT_PLAIN ? reference(value) : JSON.stringify(sorted);
}

/** The reference serializer itself (for tests). */
export const referenceCanonicalJson = reference;

function sortedCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : NOT_PLAIN;
    case 'object':
      if (value === null) return null;
      if (depth > MAX_DEPTH) return NOT_PLAIN;
      return Array.isArray(value) ? sortedArray(value, depth) : sortedObject(value, depth);
    default:
      return NOT_PLAIN;
  }
}

function sortedArray(array: unknown[], depth: number): unknown {
  let copy: unknown[] | null = null;
  for (let i = 0; i < array.length; i++) {
    const element = array[i];
    if (typeof element === 'string' || typeof element === 'boolean' || element === null) continue;
    if (typeof element === 'number') {
      if (!Number.isFinite(element)) return NOT_PLAIN;
      continue;
    }
    const sorted = sortedCopy(element, depth + 1);
    if (sorted === NOT_PLAIN) return NOT_PLAIN;
    (copy ??= array.slice())[i] = sorted;
  }
  return copy ?? array;
}

function sortedObject(object: object, depth: number): unknown {
  if (Object.getPrototypeOf(object) !== Object.prototype) return NOT_PLAIN;
  const source = object as Record<string, unknown>;
  const keys = Object.keys(source).sort();
  const copy: Record<string, unknown> = {};
  for (const key of keys) {
    if (key === '__proto__' || INDEX_KEY.test(key)) return NOT_PLAIN;
    const sorted = sortedCopy(source[key], depth + 1);
    if (sorted === NOT_PLAIN) return NOT_PLAIN;
    copy[key] = sorted;
  }
  return copy;
}
