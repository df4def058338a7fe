/**
 * How the MongoDB read store stores top-level arrays, so that MongoDB agrees with the port (and the embedded
 * store) on them. The port treats an array like an object, as one opaque value: it never equals, falls in a
 * range of, or contains a scalar, even one of its elements (so `$ne` matches it), and it sorts with the
 * objects, after strings and before booleans. MongoDB instead matches a condition against an array's elements
 * and sorts an array by its least (or greatest) element. Storing each top-level array as an object
 * `{__cairn_array: [...]}` gives it exactly the port's semantics in every filter and sort, with plain queries
 * and indexes (no aggregation); reads unwrap it. Nested arrays are never filtered or sorted on, and stay as they
 * are. Plain data: no driver import.
 */

export const ARRAY_KEY = '__cairn_array';

type Json = Record<string, unknown>;

function isWrapper(value: unknown): value is { [ARRAY_KEY]: unknown[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === ARRAY_KEY && Array.isArray((value as Json)[ARRAY_KEY]);
}

/** The document as stored: top-level arrays wrapped. A top-level value shaped like a wrapper is refused. */
export function wrapArrays(doc: Json): Json {
  const stored: Json = {};
  for (const [field, value] of Object.entries(doc)) {
    if (isWrapper(value)) {
      throw new TypeError(
        `read-model field ${field}: an object with the single key ${ARRAY_KEY} is reserved`,
      );
    }
    stored[field] = Array.isArray(value) ? { [ARRAY_KEY]: value } : value;
  }
  return stored;
}

/** The document as written: top-level wrapped arrays unwrapped. */
export function unwrapArrays(doc: Json): Json {
  const read: Json = {};
  for (const [field, value] of Object.entries(doc)) read[field] = isWrapper(value) ? value[ARRAY_KEY] : value;
  return read;
}
