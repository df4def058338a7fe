import { ndcgAt, parseQrels, recallAt } from '../../../bench/retrieval-metrics';

describe('eval:retrieval measures (trec_eval definitions)', () => {
  const judged = new Map([
    ['a', 2],
    ['b', 1],
    ['z', 0],
  ]);

  it('nDCG@k is 1 for the ideal order and discounts by log2(rank + 1) with graded gains', () => {
    expect(ndcgAt(10, ['a', 'b', 'x'], judged)).toBeCloseTo(1, 12);
    const ideal = 2 + 1 / Math.log2(3);
    // b first, a second: 1 + 2 / log2(3).
    expect(ndcgAt(10, ['b', 'a'], judged)).toBeCloseTo((1 + 2 / Math.log2(3)) / ideal, 12);
    // Only the first k results count.
    expect(ndcgAt(1, ['x', 'a'], judged)).toBe(0);
    // A document judged 0 adds nothing; no relevant document at all scores 0, not NaN.
    expect(ndcgAt(10, ['z'], judged)).toBe(0);
    expect(ndcgAt(10, ['a'], new Map([['q', 0]]))).toBe(0);
  });

  it('Recall@k is the share of documents judged relevant (grade > 0) among the first k', () => {
    expect(recallAt(100, ['x', 'b', 'z'], judged)).toBe(0.5);
    expect(recallAt(1, ['b', 'a'], judged)).toBe(0.5);
    expect(recallAt(2, ['b', 'a'], judged)).toBe(1);
    expect(recallAt(100, ['a'], new Map([['q', 0]]))).toBe(0);
  });

  it('reads BEIR qrels (header, then query, document and grade per line) and refuses a malformed line', () => {
    const qrels = parseQrels('query-id\tcorpus-id\tscore\n1\t31715818\t1\n1\t4\t2\n3\t14717500\t1\n');
    expect([...qrels.keys()]).toEqual(['1', '3']);
    expect(qrels.get('1')).toEqual(
      new Map([
        ['31715818', 1],
        ['4', 2],
      ]),
    );
    expect(() => parseQrels('query-id\tcorpus-id\tscore\n1\t2\n')).toThrow(/malformed qrels line/);
    expect(() => parseQrels('query-id\tcorpus-id\tscore\n1\t2\tmany\n')).toThrow(/malformed/);
  });
});
