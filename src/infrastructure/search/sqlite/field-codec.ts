/**
 * A search document's filter fields as the documents table stores them (layout 9): JSON text of an array.
 *
 * - `[1, v…]`: the keys are exactly CHUNK_KEYS, in that order (every memory chunk the memory projection indexes);
 *   the values follow in that order.
 * - `[0, k, v, k, v…]`: any other fields, in their order; a key in CHUNK_KEYS is its index there, another key its
 *   name.
 * - A value is the field's value as JSON, or `[i]` for KNOWN_VALUES[i] (arrays are no field value, so nothing
 *   else reads as one).
 *
 * A memory chunk's 11 fields take ~40 bytes against 216 as JSONB (layout 8) and 240 as JSON text: on BEIR SciFact
 * 1.1 MB of a 38 MB file, ~170 MB at a million chunks. Decoding gives the fields back in their order, so the row
 * hash (generation-hash.ts, over JSON.stringify of the fields) is the same whether a row was written or re-read.
 * Both lists are append-only: an index, once stored, must keep naming the same key or value.
 */
import type { FilterValue } from '../search-index.port';

export type Fields = Readonly<Record<string, FilterValue>>;

/** The memory projection's chunk fields, in the order it writes them (memory.projection.ts indexChunks). */
const CHUNK_KEYS: readonly string[] = [
  'memory_item_id',
  'memory_source_id',
  'memory_chunk_id',
  'ordinal',
  'revision',
  'type',
  'audience',
  'authority_level',
  'visibility',
  'owner_client_key',
  'expires_at_ms',
];

/**
 * String values chunks have: item types as ingestion and proposals write them, audiences, authority levels,
 * visibilities (memory.events.ts).
 */
const KNOWN_VALUES: readonly string[] = [
  'document',
  'tool_work_log',
  'memory_proposal',
  'customer_safe',
  'internal',
  'approved_source',
  'reference',
  'unverified',
  'organization_internal',
  'tool_private',
];

const FREE_FORM = 0;
const CHUNK_SHAPE = 1;

const KEY_INDEX = new Map(CHUNK_KEYS.map((key, i) => [key, i]));
const VALUE_INDEX = new Map(KNOWN_VALUES.map((value, i) => [value, i]));

type StoredValue = FilterValue | [number];

function storedValue(value: FilterValue): StoredValue {
  if (typeof value !== 'string') return value;
  const known = VALUE_INDEX.get(value);
  return known === undefined ? value : [known];
}

function fieldValue(stored: unknown): FilterValue {
  switch (typeof stored) {
    case 'string':
    case 'number':
    case 'boolean':
      return stored;
    case 'object':
      if (stored === null) return null;
      if (Array.isArray(stored) && stored.length === 1) {
        const known = KNOWN_VALUES[stored[0] as number];
        if (known !== undefined) return known;
      }
  }
  throw new RangeError('stored search fields: not a field value');
}

function isChunkShape(keys: readonly string[]): boolean {
  return keys.length === CHUNK_KEYS.length && keys.every((key, i) => key === CHUNK_KEYS[i]);
}

/** The stored form of `fields`. */
export function encodeFields(fields: Fields): string {
  const keys = Object.keys(fields);
  if (isChunkShape(keys))
    return JSON.stringify([CHUNK_SHAPE, ...keys.map((key) => storedValue(fields[key]))]);
  const out: Array<number | string | StoredValue> = [FREE_FORM];
  for (const key of keys) out.push(KEY_INDEX.get(key) ?? key, storedValue(fields[key]));
  return JSON.stringify(out);
}

/** The fields of a stored value (a fresh object, own properties only: a key named `__proto__` stays a field). */
export function decodeFields(stored: string): Record<string, FilterValue> {
  if (typeof stored !== 'string') throw new TypeError('stored search fields: expected text (layout 9)');
  const parsed = JSON.parse(stored) as unknown;
  if (!Array.isArray(parsed)) throw new RangeError('stored search fields: not an array');
  if (parsed[0] === CHUNK_SHAPE) {
    if (parsed.length !== CHUNK_KEYS.length + 1) throw new RangeError('stored search fields: wrong length');
    // One literal, for every looked-up row: ~1.3 µs here, as fast as JSON.parse of the object text it replaces
    // (a loop defining each key took ~3x longer).
    return {
      memory_item_id: fieldValue(parsed[1]),
      memory_source_id: fieldValue(parsed[2]),
      memory_chunk_id: fieldValue(parsed[3]),
      ordinal: fieldValue(parsed[4]),
      revision: fieldValue(parsed[5]),
      type: fieldValue(parsed[6]),
      audience: fieldValue(parsed[7]),
      authority_level: fieldValue(parsed[8]),
      visibility: fieldValue(parsed[9]),
      owner_client_key: fieldValue(parsed[10]),
      expires_at_ms: fieldValue(parsed[11]),
    };
  }
  const fields: Record<string, FilterValue> = {};
  if (parsed[0] !== FREE_FORM || parsed.length % 2 !== 1)
    throw new RangeError('stored search fields: bad form');
  for (let i = 1; i < parsed.length; i += 2) {
    const key: unknown = parsed[i];
    const name = typeof key === 'number' ? CHUNK_KEYS[key] : key;
    if (typeof name !== 'string') throw new RangeError('stored search fields: bad key');
    // `__proto__` is a field name like any other: defined, not assigned (assigning would set the prototype).
    if (name === '__proto__') {
      Object.defineProperty(fields, name, {
        value: fieldValue(parsed[i + 1]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else fields[name] = fieldValue(parsed[i + 1]);
  }
  return fields;
}
