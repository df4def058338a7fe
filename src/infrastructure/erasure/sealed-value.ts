import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import {
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  inflateRawSync,
  type BrotliOptions,
} from 'node:zlib';
import type { DataKey } from './data-key-store.port';

/**
 * A sealed value: a JSON value (a string `s`, any JSON `j`, or any JSON compressed first: ciphertext does not
 * compress, so a large value is compressed before it is encrypted, as the event store would have compressed it;
 * `b`: Brotli, written now; `z`: raw DEFLATE, written by earlier builds and still read) encrypted with AES-256-GCM,
 * written in place of the value as a string
 * `\u0001sealed:1:<s|j|b|z>:<key ids joined by +>:<base64 of iv ‖ tag ‖ ciphertext>`. Under several
 * keys (a reply's text under its conversation and every item it cited), the key is HMAC-SHA256 of the first key over
 * the others in order: destroying any one of them makes the value unreadable.
 */
const PREFIX = '\u0001sealed:1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Values longer than this (UTF-8 bytes of their JSON) are deflated before they are encrypted. */
const COMPRESS_FROM_BYTES = 512;

/**
 * Brotli quality 5 (text mode, the value's size as a hint; its window reaches the whole of an append): on SciFact's
 * memory items' sealed fields (title, summary, content and chunks as JSON, 3.3 KB each) 3.92 MB against 4.40 with
 * DEFLATE level 1, for ~93 µs an item against ~43 (docs/benchmarks.md, `store`). Quality 6 and 7 saved nothing more.
 * The window matters for a large item: its chunks repeat its content further back than DEFLATE's 32 KiB reach.
 */
function brotliOptions(bytes: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
    },
  };
}

/** What an unreadable (erased) string reads as; an unreadable JSON value reads as null. */
export const ERASED_TEXT = '[erased]';

/**
 * Random IVs, drawn from the system's generator 256 at a time: one call per IV cost ~20 µs on this machine's VM,
 * more than the encryption. Each IV is still 96 fresh random bits (NIST SP 800-38D 8.2.2), never reused.
 */
const IVS_PER_DRAW = 256;
let ivs = Buffer.alloc(0);
let ivOffset = 0;
function nextIv(): Buffer {
  if (ivOffset >= ivs.length) {
    ivs = randomBytes(IV_BYTES * IVS_PER_DRAW);
    ivOffset = 0;
  }
  const iv = ivs.subarray(ivOffset, ivOffset + IV_BYTES);
  ivOffset += IV_BYTES;
  return iv;
}

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

export function combinedKey(keys: Buffer[]): Buffer {
  if (keys.length === 1) return keys[0];
  const hmac = createHmac('sha256', keys[0]);
  for (const key of keys.slice(1)) hmac.update(key);
  return hmac.digest();
}

export function seal(value: unknown, keys: DataKey[]): string {
  let kind = typeof value === 'string' ? 's' : 'j';
  let plain = Buffer.from(kind === 's' ? (value as string) : JSON.stringify(value), 'utf8');
  if (kind === 'j' && plain.length > COMPRESS_FROM_BYTES) {
    kind = 'b';
    plain = brotliCompressSync(plain, brotliOptions(plain.length));
  }
  const iv = nextIv();
  const cipher = createCipheriv('aes-256-gcm', combinedKey(keys.map((k) => k.key)), iv);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  const body = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
  return `${PREFIX}${kind}:${keys.map((k) => k.key_id).join('+')}:${body}`;
}

/** The key ids a sealed value needs. */
export function sealedKeyIds(sealed: string): string[] {
  const rest = sealed.slice(PREFIX.length + 2);
  return rest.slice(0, rest.indexOf(':')).split('+');
}

/**
 * Opens a sealed value with `keyById`; a value whose key is gone (erased) reads as ERASED_TEXT (a string) or null.
 * A value that does not authenticate under its keys throws: that is tampering, not erasure.
 */
export function open(sealed: string, keyById: (id: string) => Buffer | null): unknown {
  const kind = sealed[PREFIX.length];
  const rest = sealed.slice(PREFIX.length + 2);
  const colon = rest.indexOf(':');
  const keys: Buffer[] = [];
  for (const id of rest.slice(0, colon).split('+')) {
    const key = keyById(id);
    if (!key) return kind === 's' ? ERASED_TEXT : null;
    keys.push(key);
  }
  const body = Buffer.from(rest.slice(colon + 1), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', combinedKey(keys), body.subarray(0, IV_BYTES));
  decipher.setAuthTag(body.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  const plain = Buffer.concat([decipher.update(body.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  if (kind === 's') return plain.toString('utf8');
  const json = kind === 'b' ? brotliDecompressSync(plain) : kind === 'z' ? inflateRawSync(plain) : plain;
  return JSON.parse(json.toString('utf8')) as unknown;
}
