import { joinParts, PART_BUDGET_BYTES, splitContent } from '../../../src/commands/memory/content-parts';
import { memoryItemDecider, type MemoryItemState } from '../../../src/commands/memory/memory-item.decider';
import type {
  MemoryChunk,
  MemoryContentPartRecorded,
  MemoryItemCreated,
  MemoryItemEvent,
} from '../../../src/events/memory/memory.events';
import { givenDecider } from '../../support/decider-spec';

const given = givenDecider(memoryItemDecider);

function chunksOf(text: string): MemoryChunk[] {
  const chunks: MemoryChunk[] = [];
  for (let start = 0, n = 0; start < text.length; start += 1000, n += 1) {
    chunks.push({
      memory_chunk_id: 100 + n,
      ordinal: n,
      heading: null,
      text: text.slice(start, start + 1000),
    });
  }
  return chunks;
}

const TEXT = 'The pool opens at nine. '.repeat(60_000); // 1,440,000 characters
const item: MemoryItemCreated['data'] = {
  title: 'Handbook',
  summary: 'The pool',
  content: TEXT,
  content_sha256: 'sha-large',
  chunks: chunksOf(TEXT),
  source_date: null,
  effective_at: null,
  expires_at: null,
  memory_item_id: 7,
  memory_source_id: 3,
  organization_id: 1,
  revision: 1,
  type: 'document',
  audience: 'customer_safe',
  authority_level: 'approved_source',
  visibility: 'organization_internal',
  owner_client_key: null,
  source_uri: null,
};
const PARTS = splitContent(item) ?? [];

function part(n: number, overrides: Partial<MemoryContentPartRecorded['data']> = {}): MemoryItemEvent {
  return {
    type: 'MemoryContentPartRecorded',
    data: {
      memory_item_id: 7,
      organization_id: 1,
      revision: 1,
      content_sha256: 'sha-large',
      part: n,
      ...PARTS[n],
      ...overrides,
    },
  };
}
const allParts = (): MemoryItemEvent[] => PARTS.map((_, n) => part(n));
const inParts: MemoryItemCreated['data'] = { ...item, content: '', chunks: [], parts: PARTS.length };

describe('content parts: a revision larger than one append', () => {
  it('splits content and chunks into parts under the budget, and joins them back exactly', () => {
    expect(PARTS.length).toBeGreaterThan(4);
    for (const each of PARTS) {
      expect(
        Buffer.byteLength(JSON.stringify(each.content)) + Buffer.byteLength(JSON.stringify(each.chunks)),
      ).toBeLessThanOrEqual(PART_BUDGET_BYTES + 64);
    }
    expect(joinParts(PARTS)).toEqual({ content: TEXT, chunks: item.chunks });
    expect(splitContent({ content: 'small', chunks: chunksOf('small') })).toBeNull();
  });

  it('never splits a surrogate pair, and counts escaped characters in bytes', () => {
    const emoji = '🦦'.repeat(300_000);
    const parts = splitContent({ content: emoji, chunks: [] }) ?? [];
    expect(parts.length).toBeGreaterThan(1);
    for (const each of parts) expect(each.content).toMatch(/^(?:🦦)+$/u);
    const controls = '\u0001'.repeat(300_000); // 6 JSON bytes each
    const escaped = splitContent({ content: controls, chunks: [] }) ?? [];
    expect(escaped.length).toBeGreaterThanOrEqual(4);
    expect(joinParts(escaped).content).toBe(controls);
  });

  it('records parts in order, once each', () => {
    given([])
      .when({ type: 'RecordContentPart', part: part(0).data as MemoryContentPartRecorded['data'] })
      .then([part(0)]);
    given([part(0)])
      .when({ type: 'RecordContentPart', part: part(0).data as MemoryContentPartRecorded['data'] })
      .then([]);
    given([part(0)])
      .when({ type: 'RecordContentPart', part: part(2).data as MemoryContentPartRecorded['data'] })
      .thenThrows('memory_content_part_missing');
  });

  it('completes a revision only once every part of that revision and content is recorded', () => {
    given(allParts().slice(0, -1))
      .when({ type: 'CreateMemoryItem', item: inParts })
      .thenThrows('memory_content_incomplete');
    // Parts of other content (an interrupted ingestion of an earlier version) do not count.
    const stale = PARTS.map((_, n) => part(n, { content_sha256: 'sha-other' }));
    given(stale).when({ type: 'CreateMemoryItem', item: inParts }).thenThrows('memory_content_incomplete');
    given(allParts())
      .when({ type: 'CreateMemoryItem', item: inParts })
      .then([{ type: 'MemoryItemCreated', data: inParts }]);
  });

  it('folds the completed revision into the whole content; a new content restarts the parts', () => {
    const events: MemoryItemEvent[] = [...allParts(), { type: 'MemoryItemCreated', data: inParts }];
    const state = events.reduce(memoryItemDecider.evolve, memoryItemDecider.initialState()) as Extract<
      MemoryItemState,
      { exists: true }
    >;
    expect(state.content).toBe(TEXT);
    expect(state.chunks).toEqual(item.chunks);
    expect(state).not.toHaveProperty('parts');
    expect(state.pending).toBeUndefined();
    // A revision: parts of revision 2; part 0 of other content starts over.
    const revisionPart = part(0, { revision: 2, content_sha256: 'sha-v2' });
    given(events)
      .when({ type: 'RecordContentPart', part: revisionPart.data as MemoryContentPartRecorded['data'] })
      .then([revisionPart]);
    given(events)
      .when({ type: 'RecordContentPart', part: part(0).data as MemoryContentPartRecorded['data'] })
      .thenThrows('memory_item_changed');
  });
});
