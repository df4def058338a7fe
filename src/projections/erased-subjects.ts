import type { SubjectErased } from '../events/erasure/erasure.events';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';

/** The erased memory item a SubjectErased event names, or null (another kind, another event). */
export function erasedMemoryItem(
  recorded: RecordedEvent,
): { memory_item_id: number; organization_id: number } | null {
  if (recorded.type !== 'SubjectErased') return null;
  const data = (recorded as unknown as SubjectErased).data;
  return data.kind === 'memory_item'
    ? { memory_item_id: data.id, organization_id: data.organization_id }
    : null;
}

/** The erased conversation a SubjectErased event names, or null. */
export function erasedConversation(recorded: RecordedEvent): number | null {
  if (recorded.type !== 'SubjectErased') return null;
  const data = (recorded as unknown as SubjectErased).data;
  return data.kind === 'conversation' ? data.id : null;
}
