import { isTraceVerified } from '../../../src/commands/replies/reply-evidence';
import type { RecallTraceRecorded } from '../../../src/events/memory/recall.events';

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
  const scope = { organization_id: 1, connector_id: 2 };
  const item = { memory_item_id: 10, revision: 2 };

  it('holds for a result of the trace, at its revision, with chunks the trace returned', () => {
    expect(isTraceVerified(trace, scope, item, [101])).toBe(true);
    expect(isTraceVerified(trace, scope, item, [101, 102])).toBe(true);
  });

  it.each<[string, Parameters<typeof isTraceVerified>]>([
    ['no trace', [null, scope, item, [101]]],
    ['another organization’s trace', [trace, { ...scope, organization_id: 9 }, item, [101]]],
    ['another connector’s trace', [trace, { ...scope, connector_id: 9 }, item, [101]]],
    ['an item the trace did not return', [trace, scope, { ...item, memory_item_id: 11 }, [101]]],
    ['another revision of the item', [trace, scope, { ...item, revision: 3 }, [101]]],
    ['a chunk the trace did not return', [trace, scope, item, [101, 103]]],
  ])('fails for %s', (_name, args) => {
    expect(isTraceVerified(...args)).toBe(false);
  });
});
