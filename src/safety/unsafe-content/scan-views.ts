/**
 * Normalized views of a field's text for the scanner (issue 20: formatting must not evade it). A view is another
 * text plus, for each of its UTF-16 units, the offset in the original it came from, so a finding in a view is
 * reported at the original's line and column.
 */
export interface ScanView {
  text: string;
  /** `origin[i]` is the original offset of `text[i]`; `origin[text.length]` is the original's length. */
  origin: number[];
}

/** Invisible characters removed before matching: format controls (zero-width, bidi), default-ignorables. */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/**
 * Unicode NFKC (fullwidth and other compatibility forms become ASCII: `ＡＫＩＡ` → `AKIA`), with invisible
 * characters removed (`AKIA\u200B…`). Null when the view would equal the text.
 */
export function compatibilityView(text: string): ScanView | null {
  if (text.normalize('NFKC') === text && !INVISIBLE.test(text)) return null;
  let out = '';
  const origin: number[] = [];
  let offset = 0;
  for (const char of text) {
    if (!INVISIBLE.test(char)) {
      const normalized = char.normalize('NFKC');
      for (let i = 0; i < normalized.length; i++) origin.push(offset);
      out += normalized;
    }
    offset += char.length;
  }
  origin.push(text.length);
  return { text: out, origin };
}

/**
 * A token split over lines (`ghp_abc…` + newline + `…xyz`, or a `\`-continued line), joined: a line break (with
 * the indentation around it, a trailing `\`, a `+` concatenation or a closing-and-reopening quote) is removed
 * where the line ends in a token-like run of 6+ characters holding a digit or `_`/`-` and the next line starts
 * with 4+ token characters. Null when nothing was joined.
 *
 * Hand-written and linear (issue 29): the former regular expression had three whitespace runs separated only by
 * optional characters and backtracked cubically on a word followed by a long run of spaces (10,000 characters took
 * 172 s). Each line break is visited once, walking back over its own trailing separators and forward over the
 * next line's indentation; every character is walked over at most twice.
 */
const MIN_HEAD = 6;
const MIN_TAIL = 4;
/** How far back the token-like run before a join is read (a token longer than this still counts). */
const TAIL_LOOKBACK = 200;

const isBlank = (code: number): boolean => code === 0x20 || code === 0x09;
const isQuote = (code: number): boolean => code === 0x22 || code === 0x27;
/** `[A-Za-z0-9_\-+/=]`: characters a token continues with on the next line. */
function isTailChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f ||
    code === 0x2d ||
    code === 0x2b ||
    code === 0x2f ||
    code === 0x3d
  );
}
/** `[A-Za-z0-9_.\-+/=]`: characters a token-like run before a join is made of. */
const isHeadChar = (code: number): boolean => isTailChar(code) || code === 0x2e;

/** `text[at - 6, at)` are head characters. */
function headBefore(text: string, at: number): boolean {
  if (at < MIN_HEAD) return false;
  for (let i = at - MIN_HEAD; i < at; i++) if (!isHeadChar(text.charCodeAt(i))) return false;
  return true;
}

/** The token-like run ending at `at` (read back at most 200 characters) holds a digit, `_` or `-`. */
function tokenBefore(text: string, at: number): boolean {
  for (let i = at - 1; i >= Math.max(0, at - TAIL_LOOKBACK); i--) {
    const code = text.charCodeAt(i);
    if (!isHeadChar(code)) return false;
    if ((code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2d) return true;
  }
  return false;
}

/** Start of the separators before the line break at `newline`: `["']?[ \t]*\+?[ \t]*\\?[ \t]*`, leftmost first. */
function separatorStart(text: string, newline: number): number {
  let at = newline;
  while (at > 0 && isBlank(text.charCodeAt(at - 1))) at--;
  if (at > 0 && text.charCodeAt(at - 1) === 0x5c) at--;
  while (at > 0 && isBlank(text.charCodeAt(at - 1))) at--;
  if (at > 0 && text.charCodeAt(at - 1) === 0x2b) at--;
  while (at > 0 && isBlank(text.charCodeAt(at - 1))) at--;
  if (at > 0 && isQuote(text.charCodeAt(at - 1))) at--;
  return at;
}

/** End of the next line's indentation and optional quote when 4+ token characters follow, else -1. */
function continuationEnd(text: string, newline: number): number {
  let at = newline + 1;
  while (at < text.length && isBlank(text.charCodeAt(at))) at++;
  const tailFrom = (from: number): boolean => {
    if (from + MIN_TAIL > text.length) return false;
    for (let i = from; i < from + MIN_TAIL; i++) if (!isTailChar(text.charCodeAt(i))) return false;
    return true;
  };
  if (at < text.length && isQuote(text.charCodeAt(at)) && tailFrom(at + 1)) return at + 1;
  return tailFrom(at) ? at : -1;
}

/**
 * The join at the line break `newline`, as the removed span, or null. The removed span starts at the leftmost
 * separator position that has 6 head characters before it (every suffix of the separators is itself valid).
 */
function joinAt(text: string, newline: number): { start: number; end: number } | null {
  const end = continuationEnd(text, newline);
  if (end < 0) return null;
  for (let start = separatorStart(text, newline); start <= newline; start++) {
    if (headBefore(text, start)) return tokenBefore(text, start) ? { start, end } : null;
  }
  return null;
}

export function joinedView(view: ScanView): ScanView | null {
  const { text } = view;
  let out = '';
  const origin: number[] = [];
  let last = 0;
  for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', newline + 1)) {
    const join = joinAt(text, newline);
    if (join === null || join.start < last) continue;
    out += text.slice(last, join.start);
    for (let i = last; i < join.start; i++) origin.push(view.origin[i]!);
    last = join.end;
  }
  if (last === 0) return null;
  out += text.slice(last);
  for (let i = last; i <= text.length; i++) origin.push(view.origin[i]!);
  return { text: out, origin };
}

/** A finding's span in a view, as a span of the original text. */
export function toOriginal(view: ScanView, start: number, end: number): { start: number; end: number } {
  const from = view.origin[start] ?? view.origin[view.origin.length - 1]!;
  const last = view.origin[Math.max(start, end - 1)] ?? from;
  return { start: from, end: Math.max(from + 1, last + 1) };
}

/**
 * The identity view of a text. A plain loop: `Array.from` with a mapping function cost about 4% of an
 * ingestion's CPU (one call per character of every saved text).
 */
export function identityView(text: string): ScanView {
  const origin: number[] = [];
  for (let i = 0; i <= text.length; i++) origin.push(i);
  return { text, origin };
}
