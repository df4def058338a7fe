/**
 * The English analysis both search adapters share (Elasticsearch's `cairn_english` analyzer is its twin, see
 * ../elastic/elastic-settings.ts), modelled on Lucene's EnglishAnalyzer:
 *
 * 1. Words: runs of letters, digits and combining marks, joined across one `.` `'` `’` between two letters and
 *    across one `.` `,` `;` `'` `’` between two digits (Unicode word-break rules WB6/7 and WB11/12: "e.g",
 *    "don't", "3.5" and "1,000" stay whole). Unlike UAX #29 a colon always separates ("title:x" is two words).
 *    Anything else (quotes, operators, parentheses, emoji…) only separates words: no text is ever query syntax.
 * 2. Possessive: a trailing 's / ’s is removed.
 * 3. Lower case, diacritics removed (NFD, combining marks dropped).
 * 4. Lucene's English stop words are dropped (and not counted in the length).
 * 5. Porter stemming.
 *
 * Indexing, querying and highlighting run the same code, so a query term always meets the indexed form.
 * The scanner is hand-written (a regular expression with look-arounds was ten times slower): analysis is most
 * of the cost of indexing.
 */
import { porterStem } from './porter-stemmer';
import { HASH_SEED, hashStep, type TermEntry, WordCache } from './word-cache';

/** Lucene's English stop words (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, Elasticsearch's `_english_`). */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by for if in into is it no not of on or such that the their then there these ' +
    'they this to was will with'
  ).split(' '),
);

/** Longest term kept (longer words are cut), Lucene's StandardTokenizer's default maximum token length. */
export const MAX_TERM_LENGTH = 255;

/** The same word boundaries as a Java regular expression (Elasticsearch's pattern tokenizer, group 0). */
export const WORD_PATTERN =
  "[\\p{L}\\p{N}\\p{M}]+(?:(?:(?<=[\\p{L}\\p{M}])['.\\u2019](?=\\p{L})|(?<=\\p{N})[.,;'\\u2019](?=\\p{N}))[\\p{L}\\p{N}\\p{M}]+)*";

const OTHER = 0;
const LETTER = 1;
const DIGIT = 2;
const UNKNOWN = 3;
type CharClass = typeof OTHER | typeof LETTER | typeof DIGIT;

/** Character classes of the Basic Multilingual Plane, filled in on first sight. */
const BMP = new Uint8Array(0x10000).fill(UNKNOWN);
const IS_LETTER = /[\p{L}\p{M}]/u;
const IS_DIGIT = /\p{N}/u;

function classifySlow(codePoint: number): CharClass {
  const char = String.fromCodePoint(codePoint);
  return IS_LETTER.test(char) ? LETTER : IS_DIGIT.test(char) ? DIGIT : OTHER;
}

function classify(codePoint: number): CharClass {
  if (codePoint >= 0x10000) return classifySlow(codePoint);
  let cls = BMP[codePoint];
  if (cls === UNKNOWN) BMP[codePoint] = cls = classifySlow(codePoint);
  return cls as CharClass;
}

function isLetterJoiner(code: number): boolean {
  return code === 0x2e || code === 0x27 || code === 0x2019;
}

function isDigitJoiner(code: number): boolean {
  return code === 0x2e || code === 0x2c || code === 0x3b || code === 0x27 || code === 0x2019;
}

const POSSESSIVE = /['\u2019][sS]$/;
const MARKS = /\p{M}/gu;
const PLAIN = /^[a-z0-9]*$/;

const WORD_CACHE_LIMIT = 500_000;
const cache = new WordCache(normalizeWord, WORD_CACHE_LIMIT);
let stampCounter = 0;

/** The indexed form of one word, or null for a stop word. */
export function normalizeWord(word: string): string | null {
  let w = word.replace(POSSESSIVE, '').toLowerCase();
  if (!PLAIN.test(w)) w = w.normalize('NFD').replace(MARKS, '');
  if (w.length > MAX_TERM_LENGTH) w = w.slice(0, MAX_TERM_LENGTH);
  return w.length === 0 || ENGLISH_STOP_WORDS.has(w) ? null : porterStem(w);
}

/**
 * Calls `visit` with each word of `text` (its UTF-16 start and end, and its hash for the word cache), in
 * order. Words are found as described above; nothing is normalized here.
 */
export function scanWords(text: string, visit: (start: number, end: number, hash: number) => void): void {
  const length = text.length;
  let i = 0;
  while (i < length) {
    let code = text.codePointAt(i) as number;
    let cls = code < 0x80 ? asciiClass(code) : classify(code);
    if (cls === OTHER) {
      i += code > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    let hash = hashStep(HASH_SEED, code);
    let last: CharClass = cls;
    i += code > 0xffff ? 2 : 1;
    while (i < length) {
      code = text.codePointAt(i) as number;
      cls = code < 0x80 ? asciiClass(code) : classify(code);
      if (cls !== OTHER) {
        hash = hashStep(hash, code);
        last = cls;
        i += code > 0xffff ? 2 : 1;
        continue;
      }
      // One joiner between two letters or two digits keeps the word whole.
      if (i + 1 >= length) break;
      const next = text.codePointAt(i + 1) as number;
      const nextClass = next < 0x80 ? asciiClass(next) : classify(next);
      const joins =
        (last === LETTER && nextClass === LETTER && isLetterJoiner(code)) ||
        (last === DIGIT && nextClass === DIGIT && isDigitJoiner(code));
      if (!joins) break;
      hash = hashStep(hash, code);
      i += 1;
    }
    visit(start, i, hash);
  }
}

function asciiClass(code: number): CharClass {
  if (code >= 0x61 && code <= 0x7a) return LETTER;
  if (code >= 0x41 && code <= 0x5a) return LETTER;
  if (code >= 0x30 && code <= 0x39) return DIGIT;
  return OTHER;
}

export interface Token {
  term: string;
  /** UTF-16 offsets of the word in the analyzed text. */
  start: number;
  end: number;
}

/** Every indexed token of `text` with its offsets, in order (stop words skipped). */
export function tokenize(text: string): Token[] {
  cache.trim();
  const tokens: Token[] = [];
  scanWords(text, (start, end, hash) => {
    const entry = cache.lookup(text, start, end, hash);
    if (entry !== null) tokens.push({ term: entry.term, start, end });
  });
  return tokens;
}

/**
 * The offsets of the words of `text` whose term is one of `terms`, flat: [start0, end0, start1, end1, …] in
 * order (for highlighting: no token objects, no substrings for known words).
 */
export function findTermSpans(text: string, terms: ReadonlySet<string>): number[] {
  cache.trim();
  // Lower-casing, possessives and Porter stemming never change a word's first letter (stemming rewrites suffixes
  // of a non-empty stem), so a word starting with an ASCII character that starts no term is skipped unanalyzed.
  // A non-ASCII first letter can fold (É → e): such words are always analyzed.
  const firstLetters = new Set<number>();
  for (const term of terms) firstLetters.add(term.charCodeAt(0));
  const spans: number[] = [];
  scanWords(text, (start, end, hash) => {
    const first = text.charCodeAt(start);
    if (first < 0x80 && !firstLetters.has(first >= 0x41 && first <= 0x5a ? first + 0x20 : first)) return;
    const entry = cache.lookup(text, start, end, hash);
    if (entry !== null && terms.has(entry.term)) spans.push(start, end);
  });
  return spans;
}

/** A document's analysis: its terms (with frequencies in title and body) and both lengths in tokens. */
export interface DocumentTerms {
  /** Shared cache entries: read `term`, `titleCount` and `bodyCount` before the next analysis. */
  entries: ReadonlyArray<Readonly<TermEntry>>;
  /** Tokens, stop words not counted (as Lucene's field length). */
  titleLength: number;
  bodyLength: number;
}

/** Analyzes a document's title and body, one pass over each (one cache lookup per word, no maps built). */
export function analyzeDocument(title: string, body: string): DocumentTerms {
  cache.trim();
  const stamp = ++stampCounter;
  const entries: TermEntry[] = [];
  let titleLength = 0;
  let bodyLength = 0;
  scanWords(title, (start, end, hash) => {
    const entry = cache.lookup(title, start, end, hash);
    if (entry === null) return;
    titleLength++;
    if (entry.stamp !== stamp) {
      entry.stamp = stamp;
      entry.titleCount = 0;
      entry.bodyCount = 0;
      entries.push(entry);
    }
    entry.titleCount++;
  });
  scanWords(body, (start, end, hash) => {
    const entry = cache.lookup(body, start, end, hash);
    if (entry === null) return;
    bodyLength++;
    if (entry.stamp !== stamp) {
      entry.stamp = stamp;
      entry.titleCount = 0;
      entry.bodyCount = 0;
      entries.push(entry);
    }
    entry.bodyCount++;
  });
  return { entries, titleLength, bodyLength };
}
