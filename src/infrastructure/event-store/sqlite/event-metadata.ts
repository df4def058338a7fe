/**
 * How the embedded event store keeps an event's `metadata` column. Storage only, like event-payload.ts: the hash
 * chain covers the canonical event (hash-chain.ts), never these bytes, so a chain verifies the same whichever way an
 * event was stored, and an edited value fails it.
 *
 * - TEXT: the metadata JSON (every row written before packing existed, and any metadata the packed form cannot
 *   hold exactly: an unknown key, a hash that is not 64 lowercase hex digits, a time not in `toISOString()` form…).
 * - BLOB, FORMAT_PACKED: the same object in about a third of the bytes (~110 against ~335 for an operator's event):
 *   byte 0 the format; bytes 1–32 `prev_hash` and 33–64 `hash`; then the caller's fields (CALLER_METADATA_KEYS),
 *   each a tag byte and its value (TAG_*). A value is packed only in a form that reads back as the same JSON text,
 *   else the row keeps its JSON.
 *
 * Any other format byte is refused with a clear error (a newer build's format).
 */

import { CALLER_METADATA_KEYS } from '../hash-chain';
import { parseStoredObject } from './event-payload';

/** The keys packed as tagged values, after the two hashes. */
const FIELDS = CALLER_METADATA_KEYS;
/** The metadata keys in the order appends write them: the caller's, then the stream chain's links. */
const KEYS: readonly string[] = [...FIELDS, 'prev_hash', 'hash'];

const FORMAT_PACKED = 1;
const HASH_BYTES = 32;
const HEADER_BYTES = 1 + 2 * HASH_BYTES;

const TAG_NULL = 0;
/** A string: varint byte length, UTF-8. */
const TAG_STRING = 1;
/** A non-negative safe integer written in decimal without leading zeros ("17"): varint. */
const TAG_DECIMAL = 2;
/** A lowercase UUID in its 36-character form: 16 bytes. */
const TAG_UUID = 3;
/** A time exactly as `new Date(ms).toISOString()` writes it, 1970 or later: varint of ms. */
const TAG_TIME = 4;
/** A non-negative safe integer (a number, not a string): varint. */
const TAG_INTEGER = 5;

const HEX64 = /^[0-9a-f]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DECIMAL = /^(0|[1-9][0-9]{0,15})$/;
/** With the u flag a surrogate pair is one code point: only an unpaired surrogate matches. */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** What to store in the `metadata` column for `metadata`: packed, or its JSON text. */
export function encodeMetadata(metadata: object): string | Buffer {
  // pack() takes a value only in a form that reads back as the same JSON text (test/unit/storage/event-metadata.spec.ts
  // checks that for any values); anything else keeps the JSON.
  return pack(metadata) ?? JSON.stringify(metadata);
}

/** The metadata object of a stored `metadata` value. */
export function decodeMetadata(stored: string | Buffer): Record<string, unknown> {
  // null, a string or a list (an edited row) is refused here, in these words, not by the next reader of a key.
  if (typeof stored === 'string') return parseStoredObject(stored, "an event's metadata");
  if (stored.length < HEADER_BYTES || stored[0] !== FORMAT_PACKED) {
    throw new Error(
      `an event's metadata is stored in format ${stored[0] ?? 'none'}, which this build cannot read (a newer Cairn wrote it, or the row was edited)`,
    );
  }
  const reader = new Reader(stored, HEADER_BYTES);
  const out: Record<string, unknown> = {};
  for (const key of FIELDS) out[key] = reader.value();
  if (reader.offset !== stored.length) throw new Error("an event's packed metadata has trailing bytes");
  out.prev_hash = stored.toString('hex', 1, 1 + HASH_BYTES);
  out.hash = stored.toString('hex', 1 + HASH_BYTES, HEADER_BYTES);
  return out;
}

function pack(metadata: object): Buffer | null {
  const keys = Object.keys(metadata);
  if (keys.length !== KEYS.length || keys.some((key, n) => key !== KEYS[n])) return null;
  const record = metadata as Record<string, unknown>;
  const { prev_hash, hash } = record;
  if (typeof prev_hash !== 'string' || typeof hash !== 'string') return null;
  if (!HEX64.test(prev_hash) || !HEX64.test(hash)) return null;
  // The largest each value can take: a tag, a varint length (at most 8 bytes for a safe integer), its bytes.
  let bound = HEADER_BYTES;
  for (const key of FIELDS) {
    const value = record[key];
    bound += 1 + 8 + (typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : 0);
  }
  const writer = new Writer(Buffer.allocUnsafe(bound));
  writer.byte(FORMAT_PACKED);
  writer.hex(prev_hash);
  writer.hex(hash);
  for (const key of FIELDS) if (!writer.value(record[key])) return null;
  return writer.done();
}

/** Writes into a buffer large enough for the whole value (pack() bounds it). */
class Writer {
  private offset = 0;

  constructor(private readonly buffer: Buffer) {}

  byte(value: number): void {
    this.buffer[this.offset++] = value;
  }

  hex(value: string): void {
    this.offset += this.buffer.write(value, this.offset, 'hex');
  }

  /** Writes `value` tagged; false when no tag holds it. */
  value(value: unknown): boolean {
    if (value === null) {
      this.byte(TAG_NULL);
    } else if (typeof value === 'number') {
      if (!Number.isSafeInteger(value) || value < 0 || Object.is(value, -0)) return false;
      this.byte(TAG_INTEGER);
      this.varint(value);
    } else if (typeof value !== 'string' || LONE_SURROGATE.test(value)) {
      // UTF-8 cannot hold a lone surrogate (it would read back as U+FFFD); JSON text escapes it.
      return false;
    } else if (DECIMAL.test(value) && Number.isSafeInteger(Number(value))) {
      this.byte(TAG_DECIMAL);
      this.varint(Number(value));
    } else if (UUID.test(value)) {
      this.byte(TAG_UUID);
      for (const part of value.split('-')) this.hex(part);
    } else if (isCanonicalTime(value)) {
      this.byte(TAG_TIME);
      this.varint(Date.parse(value));
    } else {
      this.byte(TAG_STRING);
      this.varint(Buffer.byteLength(value, 'utf8'));
      this.offset += this.buffer.write(value, this.offset, 'utf8');
    }
    return true;
  }

  done(): Buffer {
    return this.buffer.subarray(0, this.offset);
  }

  private varint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.byte((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.byte(rest);
  }
}

class Reader {
  constructor(
    private readonly buffer: Buffer,
    public offset: number,
  ) {}

  value(): unknown {
    const tag = this.byte();
    switch (tag) {
      case TAG_NULL:
        return null;
      case TAG_STRING: {
        const length = this.varint();
        return this.take(length).toString('utf8');
      }
      case TAG_DECIMAL:
        return String(this.varint());
      case TAG_UUID: {
        const hex = this.take(16).toString('hex');
        return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      }
      case TAG_TIME:
        return new Date(this.varint()).toISOString();
      case TAG_INTEGER:
        return this.varint();
      default:
        throw new Error(`an event's packed metadata has an unknown value tag ${tag}`);
    }
  }

  private byte(): number {
    if (this.offset >= this.buffer.length) throw new Error("an event's packed metadata is truncated");
    return this.buffer[this.offset++];
  }

  private take(length: number): Buffer {
    if (this.offset + length > this.buffer.length) throw new Error("an event's packed metadata is truncated");
    const out = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  private varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.byte();
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) break;
      scale *= 0x80;
      if (scale > Number.MAX_SAFE_INTEGER)
        throw new Error("an event's packed metadata has an oversized number");
    }
    return value;
  }
}

function isCanonicalTime(value: string): boolean {
  if (value.length !== 24 || value[23] !== 'Z') return false;
  const ms = Date.parse(value);
  return Number.isSafeInteger(ms) && ms >= 0 && new Date(ms).toISOString() === value;
}
