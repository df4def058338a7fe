import { forEachMatch, type RawFinding } from './finding';
import {
  charClasses,
  identifierLike,
  isDocumentedExample,
  isProse,
  shannonEntropy,
} from './value-heuristics';

/**
 * Stand-alone random strings (base64/base62/base32 tokens of 32–512 characters) that no named rule recognised:
 * the "you can't just scan for patterns" part. Not flagged: hex strings (git SHAs, checksums, hashes), UUIDs,
 * digits, identifiers made of words, tokens inside URLs (document/drive links carry long random ids; credentials in
 * URLs are the URL rule's job), `data:…;base64,` payloads (inline images) and anything longer than 512 characters
 * (encoded files, not keys).
 */
const TOKEN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{32,600}={0,2}(?![A-Za-z0-9+/_=-])/g;
const URL_SPAN = /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s<>"'`]+/gi;

function insideUrl(text: string, start: number, urls: [number, number][]): boolean {
  return (
    urls.some(([from, to]) => start >= from && start < to) ||
    /base64,$/.test(text.slice(Math.max(0, start - 7), start))
  );
}

/** `oracle_thin-168ec697f43-515be69f6924b104`: words and hex/decimal segments joined by `-`/`_` (an id). */
function structuredId(token: string): boolean {
  const segments = token.split(/[-_]+/).filter((segment) => segment.length > 0);
  return (
    segments.length >= 2 &&
    segments.every(
      (segment) =>
        /^[0-9a-f]+$/.test(segment) || /^[0-9A-F]+$/.test(segment) || /^[A-Za-z][a-z]+$/.test(segment),
    )
  );
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const UUIDS = new RegExp(UUID.source, 'gi');
/** Subresource-integrity and similar digests (`sha512-…` in lock files) are public hashes. */
const DIGEST_PREFIX = /^(?:sha(?:1|224|256|384|512)|md5)-/;

/** Base64 of ordinary sentences (a config's encoded banner text) is not a key; secrets in it are found decoded. */
function encodesProse(token: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return false;
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  return /^[\x20-\x7e\n\t]+$/.test(decoded) && decoded.split(' ').length >= 4 && isProse(decoded);
}

export function isRandomToken(token: string): boolean {
  if (token.length > 512) return false;
  if (DIGEST_PREFIX.test(token)) return false;
  // A path around a UUID (`/articles/3f6c…/edit`): the id is not a secret, and what is left is too short or words.
  if (token.includes('-') && UUID.test(token)) {
    const rest = token.replace(UUIDS, '').replace(/[/_-]+/g, '');
    if (rest.length < 32 || identifierLike(rest)) return false;
  }
  if (encodesProse(token)) return false;
  if (/^[0-9a-fA-F-]+$/.test(token) || /^[\d+/=_-]+$/.test(token)) return false;
  if (isDocumentedExample(token) || identifierLike(token) || structuredId(token)) return false;
  const classes = charClasses(token);
  if (!classes.digit) return false;
  const entropy = shannonEntropy(token);
  if (classes.upper && classes.lower) return entropy >= 4.0;
  // Single-case base32/base36 (`7IWGVUX901XHS5TAS7F5…`): needs a higher bar and a real mix of digits.
  const digitShare = token.replace(/\D/g, '').length / token.length;
  return entropy >= 4.3 && digitShare >= 0.15 && digitShare <= 0.7;
}

export function detectHighEntropyStrings(text: string): RawFinding[] {
  const urls: [number, number][] = [];
  if (text.includes('://')) forEachMatch(text, URL_SPAN, (m) => urls.push([m.index, m.index + m[0].length]));
  const findings: RawFinding[] = [];
  forEachMatch(text, TOKEN, (match) => {
    const token = match[0];
    if (!isRandomToken(token) || insideUrl(text, match.index, urls)) return;
    findings.push({
      kind: 'secret',
      rule: 'high_entropy_string',
      start: match.index,
      end: match.index + token.length,
      description: 'high-entropy string (likely a key or token)',
    });
  });
  return findings;
}
