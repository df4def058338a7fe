import { ConflictError, NotFoundError } from '../../common/errors';
import type { MemoryContent, MemoryItemCreated, MemoryItemEvent } from '../../events/memory/memory.events';
import type { Decider } from '../shared/decider';

export type MemoryItemCommand =
  | { type: 'CreateMemoryItem'; item: MemoryItemCreated['data'] }
  /** Revise and archive name the organization: another organization's item reads as not found. */
  | {
      type: 'ReviseMemoryItem';
      organization_id: number;
      content: MemoryContent;
      /** An approved correction: applied once, however often its approval is run. */
      proposal_id?: number;
    }
  | { type: 'ArchiveMemoryItem'; organization_id: number };

export type MemoryItemState =
  | { exists: false }
  | (Omit<MemoryItemCreated['data'], 'revision'> & {
      exists: true;
      revision: number;
      archived: boolean;
      /** The content hash of revision 1: a retried creation is recognized after later revisions. */
      created_sha256: string;
      /** Correction proposals already applied by a revision. */
      applied_proposal_ids: number[];
    });

export const memoryItemDecider: Decider<MemoryItemCommand, MemoryItemState, MemoryItemEvent> = {
  initialState: () => ({ exists: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'MemoryItemCreated':
        return {
          ...event.data,
          exists: true,
          archived: false,
          created_sha256: event.data.content_sha256,
          applied_proposal_ids: [],
        };
      case 'MemoryItemRevised': {
        if (!state.exists) return state;
        const { proposal_id, ...revised } = event.data;
        const applied = proposal_id === undefined ? [] : [proposal_id];
        return { ...state, ...revised, applied_proposal_ids: [...state.applied_proposal_ids, ...applied] };
      }
      case 'MemoryItemArchived':
        return state.exists ? { ...state, archived: true } : state;
    }
  },

  decide(command, state) {
    if (command.type === 'CreateMemoryItem') {
      if (!state.exists) return [{ type: 'MemoryItemCreated', data: command.item }];
      // A retried creation (a save replayed, an approval run again) changes nothing, even after later revisions.
      if (
        state.organization_id === command.item.organization_id &&
        state.created_sha256 === command.item.content_sha256
      )
        return [];
      throw new ConflictError('memory_item_exists', `memory item ${command.item.memory_item_id} exists`);
    }
    if (!state.exists || state.organization_id !== command.organization_id) {
      throw new NotFoundError('memory item not found');
    }
    const ids = { memory_item_id: state.memory_item_id, organization_id: state.organization_id };
    if (command.type === 'ArchiveMemoryItem')
      return state.archived ? [] : [{ type: 'MemoryItemArchived', data: ids }];
    const proposal = command.proposal_id;
    if (proposal !== undefined && state.applied_proposal_ids.includes(proposal)) return [];
    if (state.archived)
      throw new ConflictError('memory_item_archived', 'an archived memory item cannot be revised');
    if (command.content.content_sha256 === state.content_sha256) return [];
    const revision = state.revision + 1;
    return [
      {
        type: 'MemoryItemRevised',
        data: {
          ...ids,
          ...command.content,
          revision,
          ...(proposal === undefined ? {} : { proposal_id: proposal }),
        },
      },
    ];
  },
};
