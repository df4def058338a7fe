import fc from 'fast-check';
import { asResultColumns, recallResultOf, recallResults } from '../../../src/events/memory/recall-results';
import type { RecallResult } from '../../../src/events/memory/recall.events';

const result: fc.Arbitrary<RecallResult> = fc.record({
  memory_item_id: fc.nat(),
  memory_source_id: fc.nat(),
  revision: fc.integer({ min: 1, max: 1000 }),
  memory_chunk_ids: fc.array(fc.nat(), { maxLength: 10 }),
  score: fc.double({ min: 0, max: 100, noNaN: true }),
  method: fc.constantFrom('lexical' as const, 'semantic' as const, 'hybrid' as const),
});

describe('a recall trace’s results in either layout', () => {
  it('reads columns back as the list they were made of, in order, through JSON', () => {
    fc.assert(
      fc.property(fc.array(result, { maxLength: 120 }), (results) => {
        const stored = JSON.parse(JSON.stringify({ result_columns: asResultColumns(results) })) as {
          result_columns: ReturnType<typeof asResultColumns>;
        };
        expect(recallResults(stored)).toEqual(results);
      }),
    );
  });

  it('reads a trace recorded as a list as it is, and a trace with neither as none', () => {
    const list: RecallResult[] = [
      {
        memory_item_id: 4,
        memory_source_id: 1,
        revision: 2,
        memory_chunk_ids: [7],
        score: 1.5,
        method: 'hybrid',
      },
    ];
    expect(recallResults({ results: list })).toEqual(list);
    expect(recallResults({})).toEqual([]);
  });

  it('is smaller as JSON than the list for a limit-100 search', () => {
    const results = Array.from({ length: 100 }, (_, n) => ({
      memory_item_id: 4000 + n,
      memory_source_id: 1,
      revision: 1,
      memory_chunk_ids: [7000 + 2 * n, 7001 + 2 * n],
      score: 20 / (n + 1) + 0.123456789,
      method: 'lexical' as const,
    }));
    const list = JSON.stringify(results).length;
    const columns = JSON.stringify(asResultColumns(results)).length;
    expect(columns).toBeLessThan(list * 0.5);
  });

  it('never makes a result of missing values when the columns differ in length', () => {
    const lexical = (id: number, score: number): RecallResult => ({
      memory_item_id: id,
      memory_source_id: 1,
      revision: 1,
      memory_chunk_ids: [id],
      score,
      method: 'lexical',
    });
    const columns = asResultColumns([lexical(1, 2), lexical(2, 1)]);
    expect(recallResults({ result_columns: { ...columns, scores: [2] } })).toEqual([lexical(1, 2)]);
  });

  it('finds one item’s result as the list would, in either layout, even with columns of unequal length', () => {
    // Ids from a small range, so that items repeat and many asked-for ids are in the trace.
    const small = result.map((r) => ({ ...r, memory_item_id: r.memory_item_id % 8 }));
    fc.assert(
      fc.property(
        fc.array(small, { maxLength: 30 }),
        fc.nat({ max: 9 }),
        fc.constantFrom('columns', 'list', 'short column') as fc.Arbitrary<string>,
        (results, wanted, layout) => {
          const columns = asResultColumns(results);
          if (layout === 'short column') columns.scores = columns.scores.slice(0, results.length >> 1);
          const trace = layout === 'list' ? { results } : { result_columns: columns };
          expect(recallResultOf(trace, wanted)).toEqual(
            recallResults(trace).find((r) => r.memory_item_id === wanted),
          );
        },
      ),
    );
    expect(recallResultOf({}, 1)).toBeUndefined();
  });
});
