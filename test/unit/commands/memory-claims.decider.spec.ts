import { memoryDocumentDecider } from '../../../src/commands/memory/memory-claims.decider';
import type { MemoryDocumentEvent } from '../../../src/events/memory/memory.events';
import { givenDecider } from '../../support/decider-spec';

const given = givenDecider(memoryDocumentDecider);
const key = { organization_id: 1, document_key: 'file:handbook/hours.md' };
const claimed = (memory_item_id: number, replaces?: number): MemoryDocumentEvent => ({
  type: 'MemoryDocumentClaimed',
  data: {
    ...key,
    memory_item_id,
    memory_source_id: 3,
    ...(replaces === undefined ? {} : { replaces_memory_item_id: replaces }),
  },
});
const claim = (memory_item_id: number, replaces?: number) => ({
  type: 'ClaimDocument' as const,
  ...key,
  memory_item_id,
  memory_source_id: 3,
  ...(replaces === undefined ? {} : { replaces_memory_item_id: replaces }),
});

describe('memoryDocumentDecider: a document key names one item; an erased one is replaced once', () => {
  it('the first claim wins; a later one records nothing', () => {
    given([])
      .when(claim(10))
      .then([claimed(10)]);
    given([claimed(10)])
      .when(claim(11))
      .then([]);
  });

  it('a claim naming the erased item it replaces moves the key to a new item, the same source', () => {
    given([claimed(10)])
      .when(claim(12, 10))
      .then([claimed(12, 10)]);
    expect(memoryDocumentDecider.evolve({ claimed: null }, claimed(12, 10))).toEqual({
      claimed: { memory_item_id: 12, memory_source_id: 3 },
    });
  });

  it('of two replacements decided on the same erased item, the second (decided again) records nothing', () => {
    given([claimed(10), claimed(12, 10)])
      .when(claim(13, 10))
      .then([]);
  });

  it('a replacement of an item the key does not name, or of no claim, records nothing', () => {
    given([claimed(10)])
      .when(claim(14, 9))
      .then([]);
    given([]).when(claim(14, 9)).then([]);
  });
});
