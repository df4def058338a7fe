import type { DomainEvent } from '../domain-event';

/**
 * A connector's save under an idempotency key (stream keyed by organization, client key and key): the first
 * request's fingerprint and the ids it created. A retry with the same content replays them.
 */
export type MemorySaveAccepted = DomainEvent<
  'MemorySaveAccepted',
  {
    organization_id: number;
    connector_id: number;
    fingerprint: string;
    memory_item_id: number;
    memory_source_id: number;
    visibility: 'tool_private' | 'organization_internal';
  }
>;

export type MemorySaveEvent = MemorySaveAccepted;
