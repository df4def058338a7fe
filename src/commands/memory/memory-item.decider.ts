import { ConflictError, NotFoundError } from '../../common/errors';
import type {
  MemoryContent,
  MemoryContentPart,
  MemoryContentPartRecorded,
  MemoryItemCreated,
  MemoryItemEvent,
} from '../../events/memory/memory.events';
import type { Decider } from '../shared/decider';
import { joinParts } from './content-parts';

export type MemoryItemCommand =
  | { type: 'CreateMemoryItem'; item: MemoryItemCreated['data'] }
  /** Revise and archive name the organization: another organization's item reads as not found. */
  | {
      type: 'ReviseMemoryItem';
      organization_id: number;
      content: MemoryContent;
      /** An approved correction: applied once, however often its approval is run. */
      proposal_id?: number;
      /** The revision the new content was made from: refused when the item has moved past it. */
      base_revision?: number;
    }
  | { type: 'ArchiveMemoryItem'; organization_id: number }
  /** One part of a revision too large for one append (content-parts.ts); recorded once. */
  | { type: 'RecordContentPart'; part: MemoryContentPartRecorded['data'] };

/** The parts recorded so far of a revision not yet completed (by its Created/Revised event). */
export type PendingContent = { revision: number; content_sha256: string; parts: MemoryContentPart[] };

export type MemoryItemState =
  | { exists: false; pending?: PendingContent }
  | (Omit<MemoryItemCreated['data'], 'revision' | 'parts'> & {
      exists: true;
      revision: number;
      archived: boolean;
      /** The content hash of revision 1: a retried creation is recognized after later revisions. */
      created_sha256: string;
      /** Correction proposals already applied by a revision. */
      applied_proposal_ids: number[];
      pending?: PendingContent;
    });

/** The parts of `pending` when they belong to this revision and content, else none. */
export function pendingParts(
  state: MemoryItemState,
  revision: number,
  contentSha256: string,
): MemoryContentPart[] {
  const pending = state.pending;
  return pending !== undefined && pending.revision === revision && pending.content_sha256 === contentSha256
    ? pending.parts
    : [];
}

/** The revision number the next Created/Revised event gets. */
export function nextRevision(state: MemoryItemState): number {
  return state.exists ? state.revision + 1 : 1;
}

/** Content and chunks of a Created/Revised event: inline, or joined from the pending parts it completes. */
function completedContent<T extends MemoryContent & { revision: number }>(
  state: MemoryItemState,
  data: T,
): Omit<T, 'parts'> {
  const { parts, ...rest } = data;
  if (parts === undefined) return rest;
  return { ...rest, ...joinParts(pendingParts(state, data.revision, data.content_sha256)) };
}

function recordPart(command: MemoryContentPartRecorded['data'], state: MemoryItemState): MemoryItemEvent[] {
  if (state.exists && state.organization_id !== command.organization_id) {
    throw new NotFoundError('memory item not found');
  }
  if (state.exists && state.archived) {
    throw new ConflictError('memory_item_archived', 'an archived memory item cannot be revised');
  }
  if (command.revision !== nextRevision(state)) {
    throw new ConflictError('memory_item_changed', 'the memory item changed while its revision was written');
  }
  const recorded = pendingParts(state, command.revision, command.content_sha256).length;
  if (command.part < recorded) return [];
  if (command.part > recorded) {
    throw new ConflictError('memory_content_part_missing', `part ${recorded} must be recorded first`);
  }
  return [{ type: 'MemoryContentPartRecorded', data: command }];
}

/** A revision in parts completes only after all its parts, of this revision and content, are recorded. */
function requireParts(state: MemoryItemState, content: MemoryContent, revision: number): void {
  if (content.parts === undefined) return;
  if (pendingParts(state, revision, content.content_sha256).length !== content.parts) {
    throw new ConflictError('memory_content_incomplete', 'the revision names parts that were not recorded');
  }
}

export const memoryItemDecider: Decider<MemoryItemCommand, MemoryItemState, MemoryItemEvent> = {
  initialState: () => ({ exists: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'MemoryContentPartRecorded': {
        const { revision, content_sha256, part, content, chunks } = event.data;
        const parts = pendingParts(state, revision, content_sha256);
        if (part === parts.length) {
          return { ...state, pending: { revision, content_sha256, parts: [...parts, { content, chunks }] } };
        }
        return state;
      }
      case 'MemoryItemCreated': {
        const data = completedContent(state, event.data);
        return {
          ...data,
          exists: true,
          archived: false,
          created_sha256: data.content_sha256,
          applied_proposal_ids: [],
        };
      }
      case 'MemoryItemRevised': {
        if (!state.exists) return state;
        const { proposal_id, ...revised } = completedContent(state, event.data);
        const applied = proposal_id === undefined ? [] : [proposal_id];
        const { pending: _done, ...current } = state;
        return { ...current, ...revised, applied_proposal_ids: [...state.applied_proposal_ids, ...applied] };
      }
      case 'MemoryItemArchived':
        return state.exists ? { ...state, archived: true } : state;
    }
  },

  decide(command, state) {
    if (command.type === 'RecordContentPart') return recordPart(command.part, state);
    if (command.type === 'CreateMemoryItem') {
      if (!state.exists) {
        requireParts(state, command.item, 1);
        return [{ type: 'MemoryItemCreated', data: command.item }];
      }
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
    if (command.base_revision !== undefined && command.base_revision !== state.revision) {
      throw new ConflictError(
        'memory_item_revised_since',
        `memory item ${state.memory_item_id} was revised since revision ${command.base_revision} (now ${state.revision})`,
        [{ message: 'revisions', base_revision: command.base_revision, current_revision: state.revision }],
      );
    }
    if (command.content.content_sha256 === state.content_sha256) return [];
    const revision = state.revision + 1;
    requireParts(state, command.content, revision);
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
