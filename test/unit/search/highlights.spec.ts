import { normalizeWord } from '../../../src/infrastructure/search/sqlite/analyzer';
import { highlightExcerpts } from '../../../src/infrastructure/search/sqlite/excerpts';

/** The query terms of `words`, analyzed as a query's are. */
function terms(...words: string[]): Set<string> {
  return new Set(words.map((word) => normalizeWord(word)).filter((term): term is string => term !== null));
}

const OPTIONS = { max: 3, context: 20 };

describe('embedded index highlights', () => {
  it('marks every surface form that analyzes to a query term (case, possessive, stemming, diacritics)', () => {
    expect(highlightExcerpts('Running shoes; she runs.', terms('run'), OPTIONS)).toEqual([
      '«Running» shoes; she «runs».',
    ]);
    expect(highlightExcerpts("The Company's ponies", terms('companies', 'pony'), OPTIONS)).toEqual([
      "The «Company's» «ponies»",
    ]);
    expect(highlightExcerpts('Élan vital', terms('elan'), OPTIONS)).toEqual(['«Élan» vital']);
    expect(highlightExcerpts('rose 3.5 percent', terms('3.5'), OPTIONS)).toEqual(['rose «3.5» percent']);
  });

  it('marks nothing that only shares letters with a term, and gives no excerpt without a match', () => {
    expect(highlightExcerpts('Fast running, prune', terms('run'), OPTIONS)).toEqual([
      'Fast «running», prune',
    ]);
    expect(highlightExcerpts('nothing here', terms('run'), OPTIONS)).toEqual([]);
  });

  it('cuts context at word boundaries with … where the body goes on, and collapses spaces', () => {
    const body = `${'alpha '.repeat(10)}the   refund\nwindow ${'omega '.repeat(10)}`;
    const [excerpt] = highlightExcerpts(body, terms('refund'), OPTIONS);
    expect(excerpt).toBe('…alpha alpha the «refund» window omega omega…');
  });

  it('keeps the windows with the most matches (at most `max`), in body order', () => {
    const filler = 'x '.repeat(40).trim();
    const groups = ['refund', 'refund refund', 'refund', 'refund refund refund', 'refund'];
    const body = groups.join(` ${filler} `);
    const excerpts = highlightExcerpts(body, terms('refund'), { max: 2, context: 10 });
    expect(excerpts.map((excerpt) => excerpt.match(/«/g)?.length)).toEqual([2, 3]);
  });
});
