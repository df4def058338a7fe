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
 * the indentation around it, a trailing `\` or a closing-and-reopening quote) is removed where the line ends in a
 * token-like run of 6+ characters holding a digit or `_`/`-` and the next line starts with 4+ token characters.
 * Null when nothing was joined.
 */
const SPLIT_TOKEN =
  /(?<=[A-Za-z0-9_.\-+/=]{6})["']?[ \t]*\+?[ \t]*\\?[ \t]*\n[ \t]*["']?(?=[A-Za-z0-9_\-+/=]{4})/g;
const TOKEN_TAIL = /[A-Za-z0-9_.\-+/=]+$/;

/** The token-like run ending at `at` holds a digit, `_` or `-` (prose words end lines too; they are not joined). */
function tokenBefore(text: string, at: number): boolean {
  const tail = TOKEN_TAIL.exec(text.slice(Math.max(0, at - 200), at));
  return tail !== null && /[\d_-]/.test(tail[0]);
}

export function joinedView(view: ScanView): ScanView | null {
  let out = '';
  const origin: number[] = [];
  let last = 0;
  let joined = false;
  for (const match of view.text.matchAll(SPLIT_TOKEN)) {
    const at = match.index;
    if (!tokenBefore(view.text, at)) continue;
    out += view.text.slice(last, at);
    origin.push(...view.origin.slice(last, at));
    last = at + match[0].length;
    joined = true;
  }
  if (!joined) return null;
  out += view.text.slice(last);
  origin.push(...view.origin.slice(last));
  return { text: out, origin };
}

/** A finding's span in a view, as a span of the original text. */
export function toOriginal(view: ScanView, start: number, end: number): { start: number; end: number } {
  const from = view.origin[start] ?? view.origin[view.origin.length - 1]!;
  const last = view.origin[Math.max(start, end - 1)] ?? from;
  return { start: from, end: Math.max(from + 1, last + 1) };
}

/** The identity view of a text. */
export function identityView(text: string): ScanView {
  return { text, origin: Array.from({ length: text.length + 1 }, (_, i) => i) };
}
