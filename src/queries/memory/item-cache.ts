import type { MemoryItemFields } from '../../projections/memory.projection';

const MAX_ITEMS_PER_ORGANIZATION = 50_000;

/**
 * Items (their fields, not their full text) cached per organization and valid for one `index_revision` of its corpus. That digest changes
 * whenever any item of the organization is created, revised or archived (by any process), so a search that reads
 * the corpus document first never sees a stale item.
 */
export class ItemCache {
  private readonly organizations = new Map<
    number,
    { revision: string; items: Map<number, MemoryItemFields | null> }
  >();

  /** The cache for this organization at this revision (emptied when the revision moved). */
  at(organizationId: number, revision: string): Map<number, MemoryItemFields | null> {
    const current = this.organizations.get(organizationId);
    if (current && current.revision === revision && current.items.size < MAX_ITEMS_PER_ORGANIZATION)
      return current.items;
    const fresh = { revision, items: new Map<number, MemoryItemFields | null>() };
    this.organizations.set(organizationId, fresh);
    return fresh.items;
  }
}
