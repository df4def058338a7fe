/**
 * Base64 and hex blocks that decode to text (issue 20: a base64-encoded PEM key, a hex-encoded token). The scanner
 * scans the decoded text for key material and reports a finding at the encoded block.
 */
export interface EncodedBlock {
  /** Span of the block in the scanned text. */
  start: number;
  end: number;
  encoding: 'base64' | 'base32' | 'hex';
  decoded: string;
}

/** One line of 16+ base64 characters, then more lines of them (PEM-style wrapping); 32+ characters in all. */
const BASE64_BLOCK = /[A-Za-z0-9+/_-]{16,}={0,2}(?:[ \t]*\r?\n[ \t]*[A-Za-z0-9+/_-]{4,}={0,2})*/g;
/** Base64 read out in space-separated groups of four (`R0lU TEFC X1RP …`): 6+ groups. */
const BASE64_GROUPS =
  /(?<![A-Za-z0-9+/])(?:[A-Za-z0-9+/]{4} ){5,}[A-Za-z0-9+/]{2,4}={0,2}(?![A-Za-z0-9+/=])/g;
/** RFC 4648 base32 (upper case and 2–7, `=` padding): 24+ characters. */
const BASE32_BLOCK = /(?<![A-Za-z0-9+/])[A-Z2-7]{24,}={0,6}(?![A-Za-z0-9+/=])/g;
/** 24+ hex byte pairs, optionally separated by spaces, colons or dashes. */
const HEX_BLOCK = /(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[ :-]?){24,}(?![0-9A-Fa-f])/g;

/** 24 base64 characters are 18 bytes: a bare AWS key id (20 characters) encodes to 28 (issue 29). */
const MIN_BASE64_CHARS = 24;
/** Decoded blocks are scanned only when they are text (a binary blob holds no readable key material). */
const MIN_PRINTABLE_SHARE = 0.9;
/** At most this many blocks decoded per field (bounded work on hostile input). */
const MAX_BLOCKS = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function asText(bytes: Buffer): string | null {
  if (bytes.length < 16) return null;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  let printable = 0;
  for (const char of text) if (/[\P{C}\t\r\n]/u.test(char)) printable++;
  return printable / [...text].length >= MIN_PRINTABLE_SHARE ? text : null;
}

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Bytes(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text.replace(/=+$/, '')) {
    value = (value << 5) | BASE32_ALPHABET.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** Holds a digit, a lower-case and an upper-case letter (words and identifiers are not worth decoding). */
const mixedClasses = (compact: string): boolean =>
  /\d/.test(compact) && /[a-z]/.test(compact) && /[A-Z]/.test(compact);

export function findEncodedBlocks(text: string): EncodedBlock[] {
  const blocks: EncodedBlock[] = [];
  for (const [pattern, encoding] of [
    [BASE64_GROUPS, 'base64'],
    [BASE32_BLOCK, 'base32'],
  ] as const) {
    for (const match of text.matchAll(pattern)) {
      if (blocks.length >= MAX_BLOCKS) break;
      const compact = match[0].replace(/ /g, '');
      if (encoding === 'base64' ? !mixedClasses(compact) : !/\d/.test(compact) || !/[A-Z]/.test(compact))
        continue;
      const decoded = asText(encoding === 'base64' ? Buffer.from(compact, 'base64') : base32Bytes(compact));
      if (decoded !== null)
        blocks.push({ start: match.index, end: match.index + match[0].length, encoding, decoded });
    }
  }
  for (const match of text.matchAll(BASE64_BLOCK)) {
    if (blocks.length >= MAX_BLOCKS) break;
    const compact = match[0].replace(/\s+/g, '');
    if (compact.length < MIN_BASE64_CHARS || !mixedClasses(compact)) continue;
    const decoded = asText(Buffer.from(compact, /[-_]/.test(compact) ? 'base64url' : 'base64'));
    if (decoded !== null) {
      blocks.push({ start: match.index, end: match.index + match[0].length, encoding: 'base64', decoded });
    }
  }
  for (const match of text.matchAll(HEX_BLOCK)) {
    if (blocks.length >= MAX_BLOCKS) break;
    const decoded = asText(Buffer.from(match[0].replace(/[^0-9A-Fa-f]/g, ''), 'hex'));
    if (decoded !== null) {
      blocks.push({ start: match.index, end: match.index + match[0].length, encoding: 'hex', decoded });
    }
  }
  return blocks;
}
