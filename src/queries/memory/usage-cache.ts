import { MAX_GET_MANY, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import {
  MEMORY_USAGE,
  MEMORY_USAGE_REVISIONS,
  type MemoryUsageDocument,
  type MemoryUsageRevisionDocument,
} from '../../projections/memory-usage.projection';
import { RevisionCache } from './revision-cache';

export interface UsageCounts {
  used_count: number;
  ignored_count: number;
}

/**
 * Items' usage counts (and which items have none), kept between searches per organization while its usage
 * revision stands still: the memory-usage projection moves that revision in the same commit as any of the
 * organization's counts (by any process), and only then, so one small read per search replaces reading every
 * candidate's counts. The revision is read before the counts: counts newer than the revision they are filed under
 * are only refreshed sooner. A rebuild drops the revision (and the counts) first.
 */
export class UsageCache {
  private readonly counted = new RevisionCache<UsageCounts>();

  constructor(private readonly readStore: ReadStore) {}

  /** The counts of `itemIds` (null: no usage reported), current as of this call. */
  async counts(organizationId: number, itemIds: readonly number[]): Promise<Map<number, UsageCounts | null>> {
    const revision = await this.readStore.get<MemoryUsageRevisionDocument>(
      MEMORY_USAGE_REVISIONS,
      String(organizationId),
    );
    const key = revision === null ? 'none' : `${revision.projection_version}:${revision.revision}`;
    const known = this.counted.at(organizationId, key);
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
