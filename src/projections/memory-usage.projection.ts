import type { RecallUsageReported } from '../events/memory/recall.events';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { Projection, ProjectionContext } from './projection';

export const MEMORY_USAGE = 'memory_usage';
/** Per organization: where its usage counts last changed (what searches' usage caches are keyed on). */
export const MEMORY_USAGE_REVISIONS = 'memory_usage_revisions';

/** Per item: in how many recall traces (latest report of each) it was reported used or ignored. */
export interface MemoryUsageDocument {
  id: string;
  memory_item_id: number;
  organization_id: number;
  used_count: number;
  ignored_count: number;
  [key: string]: unknown;
}

/**
 * An organization's usage revision: the position of the last event that changed any of its counts, and the
 * projection version that wrote them. It changes in the same commit as the counts, and only then: not with the
 * checkpoint moves that every other event (every search's recall trace) causes.
 */
export interface MemoryUsageRevisionDocument {
  id: string;
  organization_id: number;
  revision: number;
  projection_version: number;
  [key: string]: unknown;
}

const VERSION = 2;

export const memoryUsageProjection: Projection = {
  name: 'memory-usage',
  // 2: per-organization usage revisions.
  version: VERSION,
  collections: [
    { name: MEMORY_USAGE, indexes: ['organization_id'] },
    { name: MEMORY_USAGE_REVISIONS, indexes: [] },
  ],
  eventTypes: new Set(['RecallUsageReported']),
  async apply(recorded: RecordedEvent, context: ProjectionContext) {
    const data = (recorded as unknown as RecallUsageReported).data;
    const deltas = new Map<number, { used: number; ignored: number }>();
    const add = (ids: number[], key: 'used' | 'ignored', delta: number): void => {
      for (const id of ids) {
        const entry = deltas.get(id) ?? { used: 0, ignored: 0 };
        entry[key] += delta;
        deltas.set(id, entry);
      }
    };
    add(data.previous_used_item_ids, 'used', -1);
    add(data.previous_ignored_item_ids, 'ignored', -1);
    add(data.used_item_ids, 'used', 1);
    add(data.ignored_item_ids, 'ignored', 1);
    let changed = false;
    for (const [memory_item_id, delta] of deltas) {
      if (delta.used === 0 && delta.ignored === 0) continue;
      changed = true;
      const id = String(memory_item_id);
      const current = (await context.get<MemoryUsageDocument>(MEMORY_USAGE, id)) ?? {
        id,
        memory_item_id,
        organization_id: data.organization_id,
        used_count: 0,
        ignored_count: 0,
      };
      context.put(MEMORY_USAGE, {
        ...current,
        used_count: current.used_count + delta.used,
        ignored_count: current.ignored_count + delta.ignored,
      });
    }
    if (changed) {
      const revision: MemoryUsageRevisionDocument = {
        id: String(data.organization_id),
        organization_id: data.organization_id,
        revision: recorded.position,
        projection_version: VERSION,
      };
      context.put(MEMORY_USAGE_REVISIONS, revision);
    }
  },
};
