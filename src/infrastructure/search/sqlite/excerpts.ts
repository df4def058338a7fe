/**
 * Highlights: the body's words whose analyzed term is one of the query's are found (their offsets only, no
 * copy of the body), and the body is cut into at most a few short excerpts around them, the matched words
 * wrapped in « ». Pure string work.
 */
import { findTermSpans } from './analyzer';

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

const SPACE = /\s/;

/** A space character (the test is on one UTF-16 unit: no space lies outside the BMP). */
function isSpace(text: string, at: number): boolean {
  return SPACE.test(text[at]);
}

/**
 * The window of `context` characters around the match [spanStart, spanEnd), its start moved right to the
 * beginning of a word (never past the match), its end moved left to the end of one (never before the match).
 */
function windowAround(text: string, spanStart: number, spanEnd: number, context: number): Window {
  let start = Math.max(0, spanStart - context);
  if (start > 0 && !isSpace(text, start - 1)) {
    let at = start;
    while (at < spanStart && !isSpace(text, at)) at++;
    start = at < spanStart ? at + 1 : spanStart;
  }
  let end = Math.min(text.length, spanEnd + context);
  if (end < text.length && !isSpace(text, end)) {
    let at = end - 1;
    while (at >= spanEnd && !isSpace(text, at)) at--;
    end = at >= spanEnd ? at : spanEnd;
  }
  return { start, end, matches: 1 };
}

/** The text of one window, its matches in « », spaces collapsed, with … where the body goes on. */
function excerptText(text: string, window: Window, spans: readonly number[]): string {
  const parts: string[] = [];
  let from = window.start;
  for (let i = 0; i < spans.length; i += 2) {
    if (spans[i] < window.start) continue;
    if (spans[i + 1] > window.end) break;
    parts.push(text.slice(from, spans[i]), '«', text.slice(spans[i], spans[i + 1]), '»');
    from = spans[i + 1];
  }
  parts.push(text.slice(from, window.end));
  const body = parts.join('').replace(/\s+/g, ' ').trim();
  return `${window.start > 0 ? '…' : ''}${body}${window.end < text.length ? '…' : ''}`;
}

/** At most `options.max` excerpts of `body` around the words matching `terms` (none: no excerpt). */
export function highlightExcerpts(
  body: string,
  terms: ReadonlySet<string>,
  options: ExcerptOptions,
): string[] {
  const spans = findTermSpans(body, terms);
  if (spans.length === 0) return [];
  const windows: Window[] = [];
  for (let i = 0; i < spans.length; i += 2) {
    const window = windowAround(body, spans[i], spans[i + 1], options.context);
    const last = windows.at(-1);
    // Windows come in order; an overlapping or touching one is merged, so no excerpt cuts through a match.
    if (last !== undefined && window.start <= last.end) {
      last.end = Math.max(last.end, window.end);
      last.matches += 1;
    } else {
      windows.push(window);
    }
  }
  // The windows with the most matches (the earlier on a tie), in body order.
  const chosen = [...windows]
    .sort((a, b) => b.matches - a.matches || a.start - b.start)
    .slice(0, options.max)
    .sort((a, b) => a.start - b.start);
  return chosen.map((window) => excerptText(body, window, spans));
}
