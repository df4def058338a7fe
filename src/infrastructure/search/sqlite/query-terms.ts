/**
 * Turns plain user text into search terms. Nothing the user types is ever treated as query syntax: a term is a
 * run of letters, digits and combining marks (Unicode aware); everything else (quotes, operators, colons,
 * parentheses, asterisks, emoji…) only separates terms.
 *
 * English stop words are dropped, the same set as Elasticsearch's `english` analyzer, so both adapters agree on
 * which texts have no term at all and so common words do not make every document a candidate.
 */

/** Lucene's English stop words (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET). */
const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by for if in into is it no not of on or such that the their then there these ' +
    'they this to was will with'
  ).split(' '),
);

/** A query never carries more terms than this; the rest of a very long text is ignored. */
export const MAX_QUERY_TERMS = 64;

/** Longest term kept (longer runs are cut); no real word is this long. */
const MAX_TERM_LENGTH = 100;

const TERM = /[\p{L}\p{N}\p{M}]+/gu;

/** Distinct lower-cased terms of `text`, in order of first appearance, stop words dropped. */
export function queryTerms(text: string): string[] {
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(TERM)) {
    const term = match[0].toLowerCase().slice(0, MAX_TERM_LENGTH);
    if (term.length === 0 || ENGLISH_STOP_WORDS.has(term) || seen.has(term)) continue;
    seen.add(term);
    terms.push(term);
    if (terms.length === MAX_QUERY_TERMS) break;
  }
  return terms;
}

function quoted(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/**
 * The single token that stands for an organization in the FTS5 `org_token` column: `o` + hex of the UTF-8 id +
 * `0`. Only [0-9a-f] inside, so the tokenizer keeps it whole, and ending in a digit, so Porter never stems it.
 * Must equal the SQL `'o' || hex(organization_id) || '0'` (case does not matter to the tokenizer).
 */
export function organizationToken(organizationId: string): string {
  return `o${Buffer.from(organizationId, 'utf8').toString('hex')}0`;
}

/**
 * The FTS5 MATCH expression: the organization's token AND any of the terms in title or body. Every term is a
 * quoted string, so never an operator, a prefix query or a column filter.
 */
export function toFts5MatchExpression(organizationId: string, terms: readonly string[]): string {
  const anyTerm = terms.map(quoted).join(' OR ');
  return `org_token : ${quoted(organizationToken(organizationId))} AND {title body} : (${anyTerm})`;
}
