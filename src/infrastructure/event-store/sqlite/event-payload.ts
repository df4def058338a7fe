/**
 * How the embedded event store keeps an event's data: its JSON text as it is, or, from a size on (compressFrom),
 * compressed (a memory item's revision holds its text twice, as content and as chunks: compressed, the second
 * copy costs almost nothing). Storage only: the hash chain covers the canonical event (hash-chain.ts), never these
 * bytes, so the chain verifies the same whichever way an event was stored, and an edited payload fails it.
 *
 * - TEXT: the JSON (every event written before compression existed, and small ones).
 * - BLOB: one format byte, then the payload. FORMAT_DEFLATE (1, written by earlier builds): the UTF-8 JSON, raw
 *   DEFLATE (RFC 1951). FORMAT_DEFLATE_DICTIONARY (2, written now): the same with the
 *   preset dictionary PAYLOAD_DICTIONARY_V1 (payload-dictionary.ts), so that small events compress too (on BEIR
 *   SciFact a claimed document's or a registered source's ~124 bytes become ~50, a memory item's ~1,196 ~1,017).
 *   Any other format byte is refused with a clear error (a newer build's format).
 */
import { deflateRawSync, inflateRawSync, constants } from 'node:zlib';
import { PRUNABLE_TYPE } from '../pruned-traces';
import { PAYLOAD_DICTIONARY_V1 } from './payload-dictionary';
import { MAX_APPEND_BYTES_CEILING } from '../append-too-large.error';

/**
 * A search's recall trace shorter than this (UTF-16 units, a lower bound of its bytes) is stored as text. Compressing
 * has a cost of its own whatever the size: in the server under search load one `deflateRawSync` took about 40 µs of
 * CPU for a 1.5 KB recall trace (a fresh zlib state on cold caches; 16 µs in a warm loop), some 4% of a search, to
 * save about 1 KB. From 2 KiB the bytes saved grow with the size while that cost barely does: every search with
 * `limit` 10 (its trace is about 1 KB since traces store their results as columns) keeps its trace as text.
 */
export const COMPRESS_FROM_BYTES = 2048;
/**
 * Any other event's data from this size on is compressed: those are written by commands that cost far more than
 * a deflate (~13 µs for a 120-byte payload with the dictionary). Below it even the dictionary saves a few bytes.
 */
export const COMPRESS_OTHERS_FROM_BYTES = 48;

/** From what size (UTF-16 units of its JSON) an event of `type` is stored compressed. */
export function compressFrom(type: string): number {
  return type === PRUNABLE_TYPE ? COMPRESS_FROM_BYTES : COMPRESS_OTHERS_FROM_BYTES;
}
const FORMAT_DEFLATE = 1;
const FORMAT_DEFLATE_DICTIONARY = 2;
/**
 * zlib level 1: on SciFact's memory events 5.46 MB against 5.25 at the default level 6, in about half the time (the
 * compression runs on every large append, outside the write lock).
 */
const LEVEL = 1;

/** What to store in the `data` column for `json`: compressed from `from` UTF-16 units on (default: as a trace). */
export function encodePayload(json: string, from = COMPRESS_FROM_BYTES): string | Buffer {
  if (json.length < from) return json;
  const utf8 = Buffer.from(json, 'utf8');
  const compressed = deflateRawSync(utf8, {
    level: LEVEL,
    strategy: constants.Z_DEFAULT_STRATEGY,
    dictionary: PAYLOAD_DICTIONARY_V1,
  });
  if (compressed.length + 1 >= utf8.length) return json;
  const stored = Buffer.allocUnsafe(compressed.length + 1);
  stored[0] = FORMAT_DEFLATE_DICTIONARY;
  compressed.copy(stored, 1);
  return stored;
}

/** The JSON text of a stored `data` value. */
export function decodePayload(stored: string | Buffer): string {
  if (typeof stored === 'string') return stored;
  const format = stored[0];
  if (stored.length === 0 || (format !== FORMAT_DEFLATE && format !== FORMAT_DEFLATE_DICTIONARY)) {
    throw new Error(
      `an event's data is stored in format ${stored[0] ?? 'none'}, which this build cannot read (a newer Cairn wrote it, or the row was edited)`,
    );
  }
  const compressed = stored.subarray(1);
  // zlib stops at the end of the DEFLATE stream: bytes hidden after it would be stored but never read. With `info`
  // zlib returns the engine too (its bytesWritten: input consumed); @types/node types only the plain Buffer form.
  const dictionary = format === FORMAT_DEFLATE_DICTIONARY ? { dictionary: PAYLOAD_DICTIONARY_V1 } : {};
  // No event's data is larger than an append may be: a row inflating past it was edited (a decompression bomb would
  // otherwise take the reader's memory); zlib stops there with an error.
  const { buffer, engine } = inflateRawSync(compressed, {
    info: true,
    maxOutputLength: MAX_APPEND_BYTES_CEILING,
    ...dictionary,
  }) as unknown as {
    buffer: Buffer;
    engine: { bytesWritten: number };
  };
  if (engine.bytesWritten !== compressed.length) {
    throw new Error(
      `an event's compressed data has ${compressed.length - engine.bytesWritten} bytes after its end (the row was edited)`,
    );
  }
  return buffer.toString('utf8');
}

/**
 * How deep stored event data may nest. Requests are bounded at 32 levels (http/body-bounds.ts) and events wrap
 * them in a few more; a row nested thousands deep (an edited one) would overflow the stack of whatever serializes
 * it next (the hash, a JSON response), so it is refused when read.
 */
export const MAX_STORED_NESTING = 256;

/** An event's data from its stored value: a JSON object, nested at most MAX_STORED_NESTING deep; else throws. */
export function parsePayload(stored: string | Buffer): Record<string, unknown> {
  return parseStoredObject(decodePayload(stored), "an event's data");
}

/**
 * Stored JSON text that must be an object (an event's data or metadata: appends write nothing else), nested at most
 * MAX_STORED_NESTING deep; else throws, naming `what`, so no reader has to expect null, a string or a list.
 */
export function parseStoredObject(json: string, what: string): Record<string, unknown> {
  assertNesting(json);
  const parsed: unknown = JSON.parse(json);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${what} is not a JSON object`);
  return parsed as Record<string, unknown>;
}

/** Throws when stored JSON text nests deeper than MAX_STORED_NESTING. */
export function assertNesting(json: string): void {
  if (nestsDeeperThan(json, MAX_STORED_NESTING))
    throw new Error(`nested deeper than ${MAX_STORED_NESTING} levels`);
}

/**
 * Whether `json` nests arrays and objects deeper than `limit`: a scan of its text (no recursion, no parse) that
 * jumps over strings with indexOf, so a payload that is mostly one long string (sealed text) costs little. A text
 * of `limit` characters or fewer cannot nest deeper.
 */
export function nestsDeeperThan(json: string, limit: number): boolean {
  if (json.length <= limit) return false;
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(json, i);
      if (i < 0) return false; // unterminated: JSON.parse refuses it
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** The index of the quote closing the string opened at `open` (one not escaped by a backslash), or -1. */
function closingQuote(json: string, open: number): number {
  for (let at = json.indexOf('"', open + 1); at >= 0; at = json.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (json.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}
