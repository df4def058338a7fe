import type { NewEvent } from '../../src/infrastructure/event-store/event-store.port';

/** Metadata of an operator's event in organization 1, at a fixed time. */
export const operatorMetadata = {
  organization_id: '1',
  correlation_id: 'c',
  causation_id: null,
  actor: 'operator:test',
  occurred_at: '2026-11-27T00:00:00.000Z',
  schema_version: 1,
};

/** A memory item's creation (organization 1) whose sealed fields hold `The secret sentence of item <id>.` */
export function memoryItemCreated(id: number): NewEvent {
  const text = `The secret sentence of item ${id}.`;
  return {
    type: 'MemoryItemCreated',
    data: {
      memory_item_id: id,
      organization_id: 1,
      revision: 1,
      title: `Item ${id}`,
      summary: `Summary ${id}`,
      content: text,
      chunks: [{ memory_chunk_id: id, ordinal: 0, heading: null, text }],
    },
    metadata: operatorMetadata,
  };
}
