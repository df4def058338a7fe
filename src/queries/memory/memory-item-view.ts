import type { MemoryItemFields } from '../../projections/memory.projection';
import { freshnessOf, type FreshnessCategory } from './freshness';

/** Spec §2.1, the search result shape (plus `content` on the fetch-one-item response). */
export interface MemoryItemView {
  memory_item_id: number;
  memory_source_id: number;
  memory_chunk_ids: number[];
  summary: string;
  type: string;
  source_label: string;
  source_type: string;
  review_status: string;
  lifecycle_status: string;
  freshness_category: FreshnessCategory;
  content?: string;
}

export function toMemoryItemView(item: MemoryItemFields, chunkIds: number[], nowMs: number): MemoryItemView {
  return {
    memory_item_id: item.memory_item_id,
    memory_source_id: item.memory_source_id,
    memory_chunk_ids: chunkIds,
    summary: item.summary,
    type: item.type,
    source_label: item.source_label,
    source_type: item.source_type,
    review_status: item.review_status,
    lifecycle_status: item.lifecycle_status,
    freshness_category: freshnessOf(item, nowMs),
  };
}

/** Whether a connector may see an item: same organization, active, and a tool_private item only by its owner. */
export function visibleTo(item: MemoryItemFields, organizationId: number, clientKey: string): boolean {
  return (
    item.organization_id === organizationId &&
    item.lifecycle_status === 'active' &&
    (item.visibility === 'organization_internal' || item.owner_client_key === clientKey)
  );
}
