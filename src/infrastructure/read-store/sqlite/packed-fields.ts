/**
 * Packed fields of the embedded read store: a collection may name top-level fields that hold bulk text (a memory
 * item's chunks) to be stored compressed. A document's packed fields are taken out of its JSONB column (each left
 * as null, so the document's key order survives) and stored together as raw DEFLATE of their JSON in the row's
 * `packed` column; reading puts them back. A row without packed fields (or written before the column existed)
 * has `packed` NULL. Packed fields cannot be filtered or sorted on: their JSONB value is null.
 */
import { inflateRawSync } from 'node:zlib';
import type { ReadDocument } from '../read-store.port';
import type { ParsedFind } from '../read-store-query';

/**
 * DEFLATE level 4: on memory items' chunks (8 chunks, ~7 KB of JSON) 0.414 of their size in ~105 µs, against
 * 0.400 in ~200 µs at the default level 6 (measured on the store bench's synthetic text): every ingest and
 * rebuild pays it once per item.
 */
export const PACKED_DEFLATE_LEVEL = 4;

/**
 * A document split for its row: its JSON (packed fields null) and its packed fields' JSON (null: none), which the
 * store compresses (raw DEFLATE at PACKED_DEFLATE_LEVEL, several documents at once: deflate-worker.ts).
 */
export interface SerializedDocument {
  json: string;
  packedJson: string | null;
}

/**
 * Splits `doc` into its row's columns; `fields`: the collection's packed fields (none: the JSON alone);
 * `serialize`: the store's checked JSON serialization of a document.
 */
export function serializeDocument(
  doc: ReadDocument,
  fields: readonly string[],
  serialize: (doc: ReadDocument) => string,
): SerializedDocument {
  const taken: Record<string, unknown> = {};
  let any = false;
  for (const field of fields) {
    // Own fields only (not `constructor` from the prototype); values JSON leaves out (functions, symbols,
    // toJSON() giving undefined) stay in the row, where serialization drops them as it would unpacked.
    if (!Object.hasOwn(doc, field)) continue;
    const value = doc[field];
    if (value === undefined || value === null || leftOutByJson(value)) continue;
    taken[field] = value;
    any = true;
  }
  if (!any) return { json: serialize(doc), packedJson: null };
  const rest: ReadDocument = { ...doc };
  for (const field of Object.keys(taken)) rest[field] = null;
  return { json: serialize(rest), packedJson: JSON.stringify(taken) };
}

/** Whether JSON.stringify leaves the value out (without serializing plain values a second time). */
function leftOutByJson(value: unknown): boolean {
  if (typeof value === 'function' || typeof value === 'symbol') return true;
  const toJson = typeof value === 'object' ? (value as { toJSON?: unknown }).toJSON : undefined;
  return typeof toJson === 'function' && JSON.stringify(value) === undefined;
}

/** Throws RangeError when a find filters or sorts on one of `fields` (their stored value is null). */
export function assertNotPacked(fields: readonly string[] | undefined, find: ParsedFind): void {
  if (fields === undefined) return;
  const named = [...find.filter.all, ...(find.filter.anyOf ?? []).flat()].map((clause) => clause.field);
  for (const field of [...named, ...find.sort.map((key) => key.field)]) {
    if (fields.includes(field))
      throw new RangeError(`${field} is packed: it can be neither filtered nor sorted on`);
  }
}

/** One packed field of a row (undefined: the row packs none, or not that one). */
export function packedField(packed: Buffer | null, field: string): unknown {
  if (packed === null) return undefined;
  const taken = JSON.parse(inflateRawSync(packed).toString('utf8')) as Record<string, unknown>;
  return Object.hasOwn(taken, field) ? taken[field] : undefined;
}

/** The document of a row: its JSON with its packed fields put back in their places. */
export function unpackDocument<T>(json: string, packed: Buffer | null): T {
  const doc = JSON.parse(json) as Record<string, unknown>;
  if (packed !== null) {
    const taken = JSON.parse(inflateRawSync(packed).toString('utf8')) as Record<string, unknown>;
    // Only into the null its place holds: a row whose JSON says otherwise was written without packing it.
    for (const field of Object.keys(taken)) {
      if (Object.hasOwn(doc, field) && doc[field] === null) doc[field] = taken[field];
    }
  }
  return doc as T;
}
