import { MAX_GET_MANY, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import {
  MEMORY_USAGE,
  type MemoryUsageDocument,
  memoryUsageProjection,
} from '../../projections/memory-usage.projection';

export interface UsageCounts {
  used_count: number;
  ignored_count: number;
}

/** Items remembered per organization before its entries start over. */
const MAX_ITEMS_PER_ORGANIZATION = 50_000;

/**
 * Items' usage counts (and which items have none), kept between searches while the memory-usage projection's
 * stored checkpoint stands still: its read models change only in commits that move that checkpoint too (by any
 * process), so one checkpoint read per search replaces reading every candidate's counts. The checkpoint is read
 * before the counts: counts newer than the checkpoint they are filed under are only refreshed sooner.
 */
export class UsageCache {
  private checkpoint: string | null = null;
  private readonly organizations = new Map<number, Map<number, UsageCounts | null>>();

  constructor(private readonly readStore: ReadStore) {}

  /** The counts of `itemIds` (null: no usage reported), current as of this call. */
  async counts(organizationId: number, itemIds: readonly number[]): Promise<Map<number, UsageCounts | null>> {
    const checkpoint = await this.readStore.getCheckpoint(memoryUsageProjection.name);
    const key = checkpoint === null ? 'none' : `${checkpoint.version}:${checkpoint.position}`;
    if (key !== this.checkpoint) {
      this.organizations.clear();
      this.checkpoint = key;
    }
    let known = this.organizations.get(organizationId);
    if (known === undefined || known.size >= MAX_ITEMS_PER_ORGANIZATION) {
      known = new Map();
      this.organizations.set(organizationId, known);
    }
    const missing = [...new Set(itemIds)].filter((id) => !known.has(id));
    for (let start = 0; start < missing.length; start += MAX_GET_MANY) {
      const slice = missing.slice(start, start + MAX_GET_MANY);
      const docs = await this.readStore.getMany<MemoryUsageDocument>(MEMORY_USAGE, slice.map(String));
      for (const id of slice) {
        const doc = docs.get(String(id));
        known.set(id, doc ? { used_count: doc.used_count, ignored_count: doc.ignored_count } : null);
      }
    }
    return new Map(itemIds.map((id) => [id, known.get(id) ?? null]));
  }
}
