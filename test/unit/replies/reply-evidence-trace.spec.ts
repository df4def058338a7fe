import { isTraceVerified } from '../../../src/commands/replies/reply-evidence';
import type { RecallTraceRecorded } from '../../../src/events/memory/recall.events';
import { asResultColumns } from '../../../src/events/memory/recall-results';

/** `trace_verified` (spec §2.6): the reference is a result of this organization's and connector's recall trace. */
describe('isTraceVerified', () => {
  const trace: RecallTraceRecorded['data'] = {
    trace_id: 7,
    organization_id: 1,
    connector_id: 2,
    client_key: 'ck',
    query: 'When is the clinic open on Saturday?',
    visibility: 'organization_internal',
    limit: 8,
    results: [
      {
        memory_item_id: 10,
        memory_source_id: 3,
        revision: 2,
        memory_chunk_ids: [101, 102],
        score: 1,
        method: 'lexical',
      },
    ],
    index_revision: 'ix',
  };
  // The same trace as recorded now: its results as columns (recall-results.ts).
  const { results, ...rest } = trace;
  const columns: RecallTraceRecorded['data'] = { ...rest, result_columns: asResultColumns(results ?? []) };
  const scope = { organization_id: 1, connector_id: 2 };
  const item = { memory_item_id: 10, revision: 2 };

  describe.each([
    ['results as a list (recorded before the columns)', trace],
    ['results as columns', columns],
  ])('%s', (_layout, recorded) => {
    it('holds for a result of the trace, at its revision, with chunks the trace returned', () => {
      expect(isTraceVerified(recorded, scope, item, [101])).toBe(true);
      expect(isTraceVerified(recorded, scope, item, [101, 102])).toBe(true);
    });

    it.each<[string, Parameters<typeof isTraceVerified>]>([
      ['no trace', [null, scope, item, [101]]],
      ['another organization’s trace', [recorded, { ...scope, organization_id: 9 }, item, [101]]],
      ['another connector’s trace', [recorded, { ...scope, connector_id: 9 }, item, [101]]],
      ['an item the trace did not return', [recorded, scope, { ...item, memory_item_id: 11 }, [101]]],
      ['another revision of the item', [recorded, scope, { ...item, revision: 3 }, [101]]],
      ['a chunk the trace did not return', [recorded, scope, item, [101, 103]]],
    ])('fails for %s', (_name, args) => {
      expect(isTraceVerified(...args)).toBe(false);
    });
  });
});
