/**
 * Highlights: the body's words whose analyzed term is one of the query's are marked, and the marked body is cut
 * into at most a few short excerpts around the matches, with the matches wrapped in « ». Pure string work.
 */
import { tokenize } from './analyzer';

/** Private-use markers while cutting; swapped for « » at the end, so a « in the body is no marker. */
export const MATCH_OPEN = '\uE000';
export const MATCH_CLOSE = '\uE001';

export interface ExcerptOptions {
  /** At most this many excerpts. */
  max: number;
  /** Characters of context kept on each side of a match (cut back to a word boundary). */
  context: number;
}

interface Window {
  start: number;
  end: number;
  matches: number;
}

function matchSpans(marked: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let from = 0;
  for (;;) {
    const open = marked.indexOf(MATCH_OPEN, from);
    if (open < 0) break;
    const close = marked.indexOf(MATCH_CLOSE, open + 1);
    if (close < 0) break;
    spans.push([open, close + 1]);
    from = close + 1;
  }
  return spans;
}

/** Moves `start` right to the beginning of a word (not past `limit`), `end` left to the end of one. */
function toWordBoundaries(
  text: string,
  start: number,
  end: number,
  spanStart: number,
  spanEnd: number,
): Window {
  let s = start;
  if (s > 0 && !/\s/.test(text[s - 1])) {
    const space = text.slice(s, spanStart).search(/\s/);
    s = space < 0 ? spanStart : s + space + 1;
  }
  let e = end;
  if (e < text.length && !/\s/.test(text[e])) {
    const before = text.slice(spanEnd, e);
    const lastSpace = before.search(/\s\S*$/);
    e = lastSpace < 0 ? spanEnd : spanEnd + lastSpace;
  }
  return { start: s, end: e, matches: 1 };
}

/** `body` with every word that analyzes to one of `terms` wrapped in MATCH_OPEN / MATCH_CLOSE. */
export function markMatches(text: string, terms: ReadonlySet<string>): string {
  // A marker character in the text itself would be taken for a match boundary: it becomes U+FFFD.
  const body = text.replace(/[\uE000\uE001]/g, '\uFFFD');
  const parts: string[] = [];
  let from = 0;
  for (const token of tokenize(body)) {
    if (!terms.has(token.term)) continue;
    parts.push(body.slice(from, token.start), MATCH_OPEN, body.slice(token.start, token.end), MATCH_CLOSE);
    from = token.end;
  }
  if (parts.length === 0) return '';
  parts.push(body.slice(from));
  return parts.join('');
}

/** At most `options.max` excerpts of `body` around the words matching `terms` (none: no excerpt). */
export function highlightExcerpts(
  body: string,
  terms: ReadonlySet<string>,
  options: ExcerptOptions,
): string[] {
  const marked = markMatches(body, terms);
  return marked === '' ? [] : excerptsFromMarked(marked, options);
}

export function excerptsFromMarked(marked: string, options: ExcerptOptions): string[] {
  const spans = matchSpans(marked);
  if (spans.length === 0) return [];
  const windows: Window[] = [];
  for (const [spanStart, spanEnd] of spans) {
    const start = Math.max(0, spanStart - options.context);
    const end = Math.min(marked.length, spanEnd + options.context);
    const window = toWordBoundaries(marked, start, end, spanStart, spanEnd);
    const last = windows.at(-1);
    // Windows come in order; an overlapping or touching one is merged, so no excerpt cuts through a match.
    if (last !== undefined && window.start <= last.end) {
      last.end = Math.max(last.end, window.end);
      last.matches += 1;
    } else {
      windows.push(window);
    }
  }
  const chosen = [...windows]
    .sort((a, b) => b.matches - a.matches || a.start - b.start)
    .slice(0, options.max)
    .sort((a, b) => a.start - b.start);
  return chosen.map((window) => {
    const text = marked
      .slice(window.start, window.end)
      .replace(/\s+/g, ' ')
      .trim()
      .replaceAll(MATCH_OPEN, '«')
      .replaceAll(MATCH_CLOSE, '»');
    return `${window.start > 0 ? '…' : ''}${text}${window.end < marked.length ? '…' : ''}`;
  });
}
