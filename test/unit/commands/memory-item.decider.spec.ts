import { memoryItemDecider } from '../../../src/commands/memory/memory-item.decider';
import type {
  MemoryContent,
  MemoryItemCreated,
  MemoryItemEvent,
} from '../../../src/events/memory/memory.events';
import { givenDecider } from '../../support/decider-spec';

const given = givenDecider(memoryItemDecider);

function content(text: string, chunkId: number): MemoryContent {
  return {
    title: 'Opening hours',
    summary: text,
    content: text,
    content_sha256: `sha-${text}`,
    chunks: [{ memory_chunk_id: chunkId, ordinal: 0, heading: null, text }],
    source_date: null,
    effective_at: null,
    expires_at: null,
  };
}

const item: MemoryItemCreated['data'] = {
  ...content('Open on Saturday.', 1),
  memory_item_id: 7,
  memory_source_id: 3,
  organization_id: 1,
  revision: 1,
  type: 'note',
  audience: 'internal',
  authority_level: 'unverified',
  visibility: 'tool_private',
  owner_client_key: 'ck_a',
  source_uri: null,
};
const created: MemoryItemEvent = { type: 'MemoryItemCreated', data: item };
const revisedByOperator: MemoryItemEvent = {
  type: 'MemoryItemRevised',
  data: { ...content('Open on Sunday.', 2), memory_item_id: 7, organization_id: 1, revision: 2 },
};
const correction = (proposalId: number, text: string, revision: number): MemoryItemEvent => ({
  type: 'MemoryItemRevised',
  data: {
    ...content(text, 10 + revision),
    memory_item_id: 7,
    organization_id: 1,
    revision,
    proposal_id: proposalId,
  },
});

describe('memory item decider', () => {
  it('creates an item once; the same creation again records nothing', () => {
    given([]).when({ type: 'CreateMemoryItem', item }).then([created]);
    given([created])
      .when({ type: 'CreateMemoryItem', item: { ...item, ...content('Open on Saturday.', 99) } })
      .then([]);
  });

  it('recognizes a retried creation after the item was revised (a save replayed after memory:revise)', () => {
    given([created, revisedByOperator])
      .when({ type: 'CreateMemoryItem', item: { ...item, ...content('Open on Saturday.', 99) } })
      .then([]);
  });

  it('refuses a different creation under an existing id, or the same one from another organization', () => {
    given([created])
      .when({ type: 'CreateMemoryItem', item: { ...item, ...content('Closed.', 5) } })
      .thenThrows('memory_item_exists');
    given([created])
      .when({ type: 'CreateMemoryItem', item: { ...item, organization_id: 2 } })
      .thenThrows('memory_item_exists');
  });

  it('revises with the next revision number, and not when the content is unchanged', () => {
    given([created])
      .when({ type: 'ReviseMemoryItem', organization_id: 1, content: content('Open on Sunday.', 2) })
      .then([revisedByOperator]);
    given([created, revisedByOperator])
      .when({ type: 'ReviseMemoryItem', organization_id: 1, content: content('Open on Sunday.', 8) })
      .then([]);
  });

  it('applies an approved correction once: running it again never undoes a later revision', () => {
    given([created])
      .when({
        type: 'ReviseMemoryItem',
        organization_id: 1,
        content: content('Open daily.', 12),
        proposal_id: 40,
      })
      .then([correction(40, 'Open daily.', 2)]);
    const later: MemoryItemEvent = {
      type: 'MemoryItemRevised',
      data: { ...content('Open weekdays.', 20), memory_item_id: 7, organization_id: 1, revision: 3 },
    };
    given([created, correction(40, 'Open daily.', 2), later])
      .when({
        type: 'ReviseMemoryItem',
        organization_id: 1,
        content: content('Open daily.', 21),
        proposal_id: 40,
      })
      .then([]);
    // Another correction still applies.
    given([created, correction(40, 'Open daily.', 2), later])
      .when({
        type: 'ReviseMemoryItem',
        organization_id: 1,
        content: content('Open at noon.', 14),
        proposal_id: 41,
      })
      .then([correction(41, 'Open at noon.', 4)]);
  });

  it('an applied correction replays even after the item was archived; a new revision of it is 409', () => {
    const archived: MemoryItemEvent = {
      type: 'MemoryItemArchived',
      data: { memory_item_id: 7, organization_id: 1 },
    };
    const history = [created, correction(40, 'Open daily.', 2), archived];
    given(history)
      .when({ type: 'ReviseMemoryItem', organization_id: 1, content: content('x', 30), proposal_id: 40 })
      .then([]);
    given(history)
      .when({ type: 'ReviseMemoryItem', organization_id: 1, content: content('x', 30), proposal_id: 41 })
      .thenThrows('memory_item_archived');
  });

  it("another organization's item reads as not found; archiving twice records once", () => {
    given([created])
      .when({ type: 'ReviseMemoryItem', organization_id: 2, content: content('x', 30) })
      .thenThrows('not_found');
    const archived: MemoryItemEvent = {
      type: 'MemoryItemArchived',
      data: { memory_item_id: 7, organization_id: 1 },
    };
    given([created]).when({ type: 'ArchiveMemoryItem', organization_id: 1 }).then([archived]);
    given([created, archived]).when({ type: 'ArchiveMemoryItem', organization_id: 1 }).then([]);
  });
});
