import { ConflictError, NotFoundError } from '../../common/errors';
import type { MemoryContent, MemoryItemCreated, MemoryItemEvent } from '../../events/memory/memory.events';
import type { Decider } from '../shared/decider';

export type MemoryItemCommand =
  | { type: 'CreateMemoryItem'; item: MemoryItemCreated['data'] }
  /** Revise and archive name the organization: another organization's item reads as not found. */
  | { type: 'ReviseMemoryItem'; organization_id: number; content: MemoryContent }
  | { type: 'ArchiveMemoryItem'; organization_id: number };

export type MemoryItemState =
  | { exists: false }
  | (Omit<MemoryItemCreated['data'], 'revision'> & { exists: true; revision: number; archived: boolean });

export const memoryItemDecider: Decider<MemoryItemCommand, MemoryItemState, MemoryItemEvent> = {
  initialState: () => ({ exists: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'MemoryItemCreated':
        return { ...event.data, exists: true, archived: false };
      case 'MemoryItemRevised':
        return state.exists ? { ...state, ...event.data } : state;
      case 'MemoryItemArchived':
        return state.exists ? { ...state, archived: true } : state;
    }
  },

  decide(command, state) {
    if (command.type === 'CreateMemoryItem') {
      if (!state.exists) return [{ type: 'MemoryItemCreated', data: command.item }];
      if (state.content_sha256 === command.item.content_sha256) return [];
      throw new ConflictError('memory_item_exists', `memory item ${command.item.memory_item_id} exists`);
    }
    if (!state.exists || state.organization_id !== command.organization_id) {
      throw new NotFoundError('memory item not found');
    }
    const ids = { memory_item_id: state.memory_item_id, organization_id: state.organization_id };
    if (command.type === 'ArchiveMemoryItem')
      return state.archived ? [] : [{ type: 'MemoryItemArchived', data: ids }];
    if (state.archived)
      throw new ConflictError('memory_item_archived', 'an archived memory item cannot be revised');
    if (command.content.content_sha256 === state.content_sha256) return [];
    return [
      { type: 'MemoryItemRevised', data: { ...ids, ...command.content, revision: state.revision + 1 } },
    ];
  },
};
