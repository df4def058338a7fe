/**
 * Turns plain user text into query terms with the shared English analysis (analyzer.ts). Nothing the user
 * types is ever query syntax: quotes, operators, colons, parentheses, asterisks, emoji… only separate words.
 * Stop words are dropped, so a text of stop words and symbols has no term and matches nothing.
 */
import { tokenize } from './analyzer';

/** A query never carries more distinct terms than this; the rest of a very long text is ignored. */
export const MAX_QUERY_TERMS = 64;

export interface QueryTerm {
  /** The analyzed (stemmed) term. */
  term: string;
  /** How often the text says it: a repeated word weighs more, as in a bag-of-words query. */
  weight: number;
}

export interface AnalyzedQuery {
  /** Distinct terms in order of first appearance. */
  terms: QueryTerm[];
  /** The surface words behind `terms`, in order and repeated (an engine that analyzes text itself gets these). */
  words: string[];
}

export function analyzeQuery(text: string): AnalyzedQuery {
  const byTerm = new Map<string, QueryTerm>();
  const words: string[] = [];
  for (const token of tokenize(text)) {
    let entry = byTerm.get(token.term);
    if (entry === undefined) {
      if (byTerm.size === MAX_QUERY_TERMS) continue;
      byTerm.set(token.term, (entry = { term: token.term, weight: 0 }));
    }
    entry.weight += 1;
    words.push(text.slice(token.start, token.end));
  }
  return { terms: [...byTerm.values()], words };
}
