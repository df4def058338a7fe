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
/** One search's view of an organization's usage counts: read once per search, at the revision current then. */
export interface UsageSnapshot {
  /** False when the organization has no usage report at all (every item's multiplier is exactly 1). */
  readonly anyUsage: boolean;
  /** The counts of `itemIds` (null: no usage reported). */
  counts(itemIds: readonly number[]): Promise<Map<number, UsageCounts | null>>;
}

export class UsageCache {
  private readonly counted = new RevisionCache<UsageCounts>();

  constructor(private readonly readStore: ReadStore) {}

  /** The organization's counts as of this call (one small read: its usage revision). */
  async snapshot(organizationId: number): Promise<UsageSnapshot> {
    const revision = await this.readStore.get<MemoryUsageRevisionDocument>(
      MEMORY_USAGE_REVISIONS,
      String(organizationId),
    );
    const key = revision === null ? 'none' : `${revision.projection_version}:${revision.revision}`;
    const known = this.counted.at(organizationId, key);
    return {
      // The revision moves in the same commit as any count: without one, no count exists.
      anyUsage: revision !== null,
      counts: async (itemIds) => {
        if (revision !== null) await this.readMissing(known, itemIds);
        return new Map(itemIds.map((id) => [id, known.get(id) ?? null]));
      },
    };
  }

  /** The counts of `itemIds` (null: no usage reported), current as of this call. */
  async counts(organizationId: number, itemIds: readonly number[]): Promise<Map<number, UsageCounts | null>> {
    return (await this.snapshot(organizationId)).counts(itemIds);
  }

  private async readMissing(
    known: Map<number, UsageCounts | null>,
    itemIds: readonly number[],
  ): Promise<void> {
    const missing = [...new Set(itemIds)].filter((id) => !known.has(id));
    for (let start = 0; start < missing.length; start += MAX_GET_MANY) {
      const slice = missing.slice(start, start + MAX_GET_MANY);
      const docs = await this.readStore.getMany<MemoryUsageDocument>(MEMORY_USAGE, slice.map(String));
      for (const id of slice) {
        const doc = docs.get(String(id));
        known.set(id, doc ? { used_count: doc.used_count, ignored_count: doc.ignored_count } : null);
      }
    }
  }
}
