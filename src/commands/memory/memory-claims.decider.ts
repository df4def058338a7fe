import type {
  MemoryDocumentEvent,
  MemorySourceEvent,
  MemorySourceRegistered,
} from '../../events/memory/memory.events';
import type { Decider } from '../shared/decider';

/** A document key's claim: the first one wins and fixes the item/source ids every later ingestion revises. */
export const memoryDocumentDecider: Decider<
  {
    type: 'ClaimDocument';
    organization_id: number;
    document_key: string;
    memory_item_id: number;
    memory_source_id: number;
  },
  { claimed: { memory_item_id: number; memory_source_id: number } | null },
  MemoryDocumentEvent
> = {
  initialState: () => ({ claimed: null }),
  evolve: (_state, event) => ({
    claimed: { memory_item_id: event.data.memory_item_id, memory_source_id: event.data.memory_source_id },
  }),
  decide: (command, state) => {
    if (state.claimed) return [];
    const { organization_id, document_key, memory_item_id, memory_source_id } = command;
    return [
      {
        type: 'MemoryDocumentClaimed',
        data: { organization_id, document_key, memory_item_id, memory_source_id },
      },
    ];
  },
};

/** A memory source is registered once. */
export const memorySourceDecider: Decider<
  { type: 'RegisterSource'; source: MemorySourceRegistered['data'] },
  { registered: boolean },
  MemorySourceEvent
> = {
  initialState: () => ({ registered: false }),
  evolve: () => ({ registered: true }),
  decide: (command, state) =>
    state.registered ? [] : [{ type: 'MemorySourceRegistered', data: command.source }],
};
