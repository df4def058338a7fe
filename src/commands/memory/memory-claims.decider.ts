import type {
  MemoryDocumentEvent,
  MemorySourceEvent,
  MemorySourceRegistered,
} from '../../events/memory/memory.events';
import type { Decider } from '../shared/decider';

/**
 * A document key's claim: the first one wins and fixes the item/source ids every later ingestion revises. Once
 * that item is erased, a claim that names it as `replaces_memory_item_id` moves the key to a new item (the same
 * source): an erased item is never written again. Of two such claims at once the first wins, and the other, decided
 * again on the new claim, records nothing.
 */
export const memoryDocumentDecider: Decider<
  {
    type: 'ClaimDocument';
    organization_id: number;
    document_key: string;
    memory_item_id: number;
    memory_source_id: number;
    /** The claimed item, erased: claimed again only while the key still names it. */
    replaces_memory_item_id?: number;
  },
  { claimed: { memory_item_id: number; memory_source_id: number } | null },
  MemoryDocumentEvent
> = {
  initialState: () => ({ claimed: null }),
  evolve: (_state, event) => ({
    claimed: { memory_item_id: event.data.memory_item_id, memory_source_id: event.data.memory_source_id },
  }),
  decide: (command, state) => {
    const { organization_id, document_key, memory_item_id, memory_source_id, replaces_memory_item_id } =
      command;
    if (state.claimed && state.claimed.memory_item_id !== replaces_memory_item_id) return [];
    if (!state.claimed && replaces_memory_item_id !== undefined) return [];
    return [
      {
        type: 'MemoryDocumentClaimed',
        data: {
          organization_id,
          document_key,
          memory_item_id,
          memory_source_id,
          ...(replaces_memory_item_id === undefined ? {} : { replaces_memory_item_id }),
        },
      },
    ];
  },
};

/** A memory source is registered once; the state names it (a shared source's id is read from its stream). */
export const memorySourceDecider: Decider<
  { type: 'RegisterSource'; source: MemorySourceRegistered['data'] },
  { registered: boolean; memory_source_id: number | null },
  MemorySourceEvent
> = {
  initialState: () => ({ registered: false, memory_source_id: null }),
  evolve: (state, event) =>
    state.registered ? state : { registered: true, memory_source_id: event.data.memory_source_id },
  decide: (command, state) =>
    state.registered ? [] : [{ type: 'MemorySourceRegistered', data: command.source }],
};
