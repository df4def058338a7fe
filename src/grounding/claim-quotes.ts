/**
 * Quote-bound claims (ARCHITECTURE invariant 3): each claim carries the exact spans of the cited evidence it states
 * (`quotes: [{reference_id, text}]`), and Cairn verifies every one verbatim before any review call. Every later
 * check (typed facts, polarity, scope, sources) compares the claim with its own quotes, never with the whole cited
 * text. Pure.
 *
 * Verbatim means: equal after the one normalization the link policy reads text with (`linkView`: NFKC, invisible
 * characters removed, HTML character references decoded), whitespace collapsed, on both sides. Case counts.
 */
import type { ClaimQuote } from '../ai/reply-model-contract';
import { linkView } from '../safety/link-text';

const VIEWS = new Map<string, string>();
const VIEWS_SIZE = 32;

/** A text as quotes are compared: the link policy's view, whitespace collapsed and trimmed (last texts cached). */
export function quoteView(text: string): string {
  const cached = VIEWS.get(text);
  if (cached !== undefined) return cached;
  const view = linkView(text).replace(/\s+/gu, ' ').trim();
  if (VIEWS.size >= VIEWS_SIZE) VIEWS.delete(VIEWS.keys().next().value as string);
  VIEWS.set(text, view);
  return view;
}

export type QuoteProblem =
  /** The claim carries no quote (a claim without evidence of its own). */
  | { kind: 'missing' }
  /** A quote names a reference the claim does not cite. */
  | { kind: 'uncited'; quote: number }
  /** A quote is empty or not found verbatim in the cited reference's text. */
  | { kind: 'not_found'; quote: number };

/**
 * The first problem of a claim's quotes, or null when every quote is a verbatim span of a reference the claim
 * cites. `textOf` gives a cited reference's text as the models read it (undefined when not given).
 */
export function quoteProblem(
  claim: { reference_ids: readonly string[]; quotes: readonly ClaimQuote[] },
  textOf: (referenceId: string) => string | undefined,
  views: Map<string, string> = new Map(),
): QuoteProblem | null {
  if (claim.quotes.length === 0) return { kind: 'missing' };
  for (const [i, quote] of claim.quotes.entries()) {
    if (!claim.reference_ids.includes(quote.reference_id)) return { kind: 'uncited', quote: i };
    const needle = quoteView(quote.text);
    let haystack = views.get(quote.reference_id);
    if (haystack === undefined) {
      const text = textOf(quote.reference_id);
      haystack = text === undefined ? '' : quoteView(text);
      views.set(quote.reference_id, haystack);
    }
    if (needle === '' || !haystack.includes(needle)) return { kind: 'not_found', quote: i };
  }
  return null;
}

/**
 * The sentence(s) of `text` a quote lies in (in the quote view), or the quote itself when it is not found: the words
 * around a short quote that a claim may restate (the wording check's context; figures, negations and conditions are
 * still held to the quote alone).
 */
export function quoteContext(quote: string, text: string): string {
  const needle = quoteView(quote);
  const haystack = quoteView(text);
  const at = needle === '' ? -1 : haystack.indexOf(needle);
  if (at < 0) return quote;
  const before = haystack.slice(0, at);
  const start = Math.max(before.lastIndexOf('. '), before.lastIndexOf('! '), before.lastIndexOf('? ')) + 1;
  const rest = haystack.slice(at + needle.length);
  // A quote that ends its sentence is not extended into the next one.
  const end = /[.!?]$/.test(needle) ? -1 : rest.search(/[.!?](?:\s|$)/);
  if (end < 0 && /[.!?]$/.test(needle)) return haystack.slice(start, at + needle.length).trim();
  return haystack.slice(start, at + needle.length + (end < 0 ? rest.length : end + 1)).trim();
}
