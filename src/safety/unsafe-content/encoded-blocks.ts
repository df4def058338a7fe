/**
 * Base64 and hex blocks that decode to text (issue 20: a base64-encoded PEM key, a hex-encoded token). The scanner
 * scans the decoded text for key material and reports a finding at the encoded block.
 */
export interface EncodedBlock {
  /** Span of the block in the scanned text. */
  start: number;
  end: number;
  encoding: 'base64' | 'hex';
  decoded: string;
}

/** One line of 16+ base64 characters, then more lines of them (PEM-style wrapping); 32+ characters in all. */
const BASE64_BLOCK = /[A-Za-z0-9+/_-]{16,}={0,2}(?:[ \t]*\r?\n[ \t]*[A-Za-z0-9+/_-]{4,}={0,2})*/g;
/** 24+ hex byte pairs, optionally separated by spaces, colons or dashes. */
const HEX_BLOCK = /(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[ :-]?){24,}(?![0-9A-Fa-f])/g;

const MIN_BASE64_CHARS = 32;
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

export function findEncodedBlocks(text: string): EncodedBlock[] {
  const blocks: EncodedBlock[] = [];
  for (const match of text.matchAll(BASE64_BLOCK)) {
    if (blocks.length >= MAX_BLOCKS) break;
    const compact = match[0].replace(/\s+/g, '');
    // Words and identifiers are not base64 worth decoding: require mixed classes.
    if (
      compact.length < MIN_BASE64_CHARS ||
      !/\d/.test(compact) ||
      !/[a-z]/.test(compact) ||
      !/[A-Z]/.test(compact)
    )
      continue;
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
