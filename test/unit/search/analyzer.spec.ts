import fc from 'fast-check';
import {
  analyzeDocument,
  normalizeWord,
  scanWords,
  tokenize,
  WORD_PATTERN,
} from '../../../src/infrastructure/search/sqlite/analyzer';
import { WordCache } from '../../../src/infrastructure/search/sqlite/word-cache';

/**
 * The embedded analyzer (analyzer.ts) against a reference without its shortcuts: words found by WORD_PATTERN (the
 * boundaries Elasticsearch's twin analyzer uses), each normalized on its own. The hand-written scanner, the word
 * cache (looked up by a hash computed while scanning, never by a substring) and the per-document tally must
 * give exactly that.
 */
const WORDS = new RegExp(WORD_PATTERN, 'gu');

function referenceTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.matchAll(WORDS)) {
    const term = normalizeWord(match[0]);
    if (term !== null) terms.push(term);
  }
  return terms;
}

function counts(terms: string[]): Map<string, number> {
  const tally = new Map<string, number>();
  for (const term of terms) tally.set(term, (tally.get(term) ?? 0) + 1);
  return tally;
}

/** Text built from pieces that stress the scanner: joiners, digits, stop words, case, marks, astral letters. */
const piece = fc.constantFrom(
  'Cairn',
  'cairns',
  'moraine',
  "glacier's",
  'glacier’s',
  'e.g',
  "don't",
  '3.5',
  '1,000',
  '2;3',
  'the',
  'And',
  'Café',
  'cafe\u0301',
  'ÉTÉ',
  '𝒜lpha',
  '日本語',
  'x'.repeat(300),
  ' ',
  ' ',
  '.',
  ',',
  "'",
  ':',
  '-',
  '\n',
  '(',
  '"',
  '😀',
);
const text = fc.array(fc.oneof(piece, fc.string({ maxLength: 6 })), { maxLength: 40 }).map((p) => p.join(''));

describe('analyzer', () => {
  it('tokenize() finds and normalizes the words WORD_PATTERN finds, in order, with their offsets', () => {
    fc.assert(
      fc.property(text, (t) => {
        const tokens = tokenize(t);
        expect(tokens.map((token) => token.term)).toEqual(referenceTerms(t));
        for (const token of tokens) expect(normalizeWord(t.slice(token.start, token.end))).toBe(token.term);
      }),
      { numRuns: 500 },
    );
  });

  it('analyzeDocument() counts each term in title and body, and the lengths without stop words', () => {
    fc.assert(
      fc.property(text, text, (title, body) => {
        const titleTerms = referenceTerms(title);
        const bodyTerms = referenceTerms(body);
        const a = analyzeDocument(title, body);
        expect(a.titleLength).toBe(titleTerms.length);
        expect(a.bodyLength).toBe(bodyTerms.length);
        const got = new Map(a.entries.map((e) => [e.term, [e.titleCount, e.bodyCount]]));
        const titleCounts = counts(titleTerms);
        const bodyCounts = counts(bodyTerms);
        const expected = new Map(
          [...new Set([...titleTerms, ...bodyTerms])].map((term) => [
            term,
            [titleCounts.get(term) ?? 0, bodyCounts.get(term) ?? 0],
          ]),
        );
        expect(got).toEqual(expected);
        // One entry per term.
        expect(a.entries).toHaveLength(expected.size);
      }),
      { numRuns: 300 },
    );
  });

  it('the word cache gives every word its own normalization across growth, colliding hashes and trims', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(piece, fc.string({ minLength: 1, maxLength: 5 })), {
          minLength: 1,
          maxLength: 200,
        }),
        fc.integer({ min: 1, max: 50 }),
        fc.boolean(),
        (words, limit, collide) => {
          const cache = new WordCache(normalizeWord, limit);
          for (const word of words) {
            cache.trim();
            scanWords(word, (start, end, hash) => {
              // Every word with one hash (collide): only the comparison of the words tells them apart.
              const entry = cache.lookup(word, start, end, collide ? 7 : hash);
              expect(entry?.term ?? null).toBe(normalizeWord(word.slice(start, end)));
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
