import type { ReadStore } from '../../infrastructure/read-store/read-store.port';
import { MAX_EXCLUDED_VALUES } from '../../infrastructure/search/search-index.port';
import { MEMORY_ITEMS, type MemoryItemDocument } from '../../projections/memory.projection';

/** How often, at most, a search reads the corpus revision to bring an organization's list up to date. */
export const REFRESH_INTERVAL_MS = 1000;
/** The most private items remembered per organization (about 100 bytes each); later ones are not excluded. */
export const MAX_TRACKED_ITEMS = 4 * MAX_EXCLUDED_VALUES;
/**
 * Organizations whose lists are kept, and the private items remembered over all of them: past either, the lists
 * of the organizations searched least recently are dropped (the next search of one reads its list again). Without
 * a bound a process serving many organizations kept a list for every one it ever searched. The total lets two
 * organizations at MAX_TRACKED_ITEMS alternate without reading their lists again at every search.
 */
export const MAX_ORGANIZATIONS = 1024;
export const MAX_TRACKED_TOTAL = 2 * MAX_TRACKED_ITEMS;
/** Client keys whose sets are kept per organization (each up to MAX_EXCLUDED_VALUES ids). */
const MAX_SETS_PER_ORGANIZATION = 32;
/** Items read per query while bringing a list up to date. */
const PAGE = 2000;

/** The set of a search at `organization_internal` visibility: every connector's private items. */
const EVERY_OWNER = '';

interface OrganizationList {
  /** tool_private items (any lifecycle) by id: their owner's client key. Only ever grows (see the class comment). */
  owners: Map<number, string>;
  /** The highest item id read. */
  maxId: number;
  /** The corpus revision the list was last brought up to date at (null: never). */
  revision: string | null;
  refreshedAtMs: number;
  refreshing: Promise<void> | null;
  /** Per client key (EVERY_OWNER: all): the set and the `owners.size` it was built at. */
  sets: Map<string, { builtAt: number; set: ReadonlySet<number> }>;
  /** How many of `owners` count in OthersPrivateItems' total (brought up to date after each refresh). */
  counted: number;
}

/**
 * The `tool_private` items a search may not see, for the index to skip while ranking
 * (SearchQuery.collapse.excluded_values): other connectors' items for a search at the default visibility, every
 * connector's for `organization_internal`. Filtered after ranking instead, each such item that matched better than
 * the results was read and dropped, and each next ranking asked for four times as many: one connector's 2,000
 * notes of common words took another connector's default search from about 6 ms to about 83 ms on SciFact
 * (measured over HTTP, docs/architecture.md), and each connector may save 120 a minute.
 *
 * An item's visibility and owner are set when it is created and never change (MemoryItemCreated; revisions carry
 * neither), and item ids only grow: so a list read at any time excludes only what a search may not see, and
 * bringing it up to date reads only the items created since (ids above the highest read), once the corpus
 * revision (read at most every REFRESH_INTERVAL_MS, not at every search) moved. A list behind the corpus (by at
 * most that interval, or past MAX_TRACKED_ITEMS) excludes fewer: the rest are filtered after ranking, as before.
 * Archived and erased items stay listed: they are out of search anyway.
 */
export class OthersPrivateItems {
  /** By organization, least recently searched first (a search moves its organization to the end). */
  private readonly organizations = new Map<number, OrganizationList>();
  /** Private items remembered over every kept list (their `counted`). */
  private tracked = 0;
  private readonly maxOrganizations: number;
  private readonly maxTrackedTotal: number;

  constructor(
    private readonly readStore: ReadStore,
    bounds: { maxOrganizations?: number; maxTrackedTotal?: number } = {},
  ) {
    this.maxOrganizations = bounds.maxOrganizations ?? MAX_ORGANIZATIONS;
    this.maxTrackedTotal = bounds.maxTrackedTotal ?? MAX_TRACKED_TOTAL;
  }

  /** Private items remembered now, over every organization kept (for tests and diagnostics). */
  get trackedItems(): number {
    return this.tracked;
  }

  /**
   * The items to exclude (at most MAX_EXCLUDED_VALUES) for a search by `clientKey` (null: an
   * `organization_internal` search, every private item); undefined when there are none. At most once per
   * REFRESH_INTERVAL_MS, `revision` (the corpus revision) is read, and the list brought up to date when it moved.
   */
  async of(
    organizationId: number,
    clientKey: string | null,
    revision: () => Promise<string>,
    nowMs: number,
  ): Promise<ReadonlySet<number> | undefined> {
    const list = this.listOf(organizationId);
    if (list.revision === null || nowMs - list.refreshedAtMs >= REFRESH_INTERVAL_MS) {
      list.refreshing ??= this.refresh(list, organizationId, revision, nowMs).finally(() => {
        list.refreshing = null;
      });
      await list.refreshing;
    }
    const set = this.setOf(list, clientKey ?? EVERY_OWNER);
    return set.size === 0 ? undefined : set;
  }

  private listOf(organizationId: number): OrganizationList {
    let list = this.organizations.get(organizationId);
    if (list === undefined) {
      list = {
        owners: new Map(),
        maxId: 0,
        revision: null,
        refreshedAtMs: 0,
        refreshing: null,
        sets: new Map(),
        counted: 0,
      };
    } else this.organizations.delete(organizationId);
    this.organizations.set(organizationId, list);
    this.keepWithinBounds(list);
    return list;
  }

  /** Drops the least recently searched organizations' lists while past a bound; never `using`'s. */
  private keepWithinBounds(using: OrganizationList): void {
    for (const [organizationId, list] of this.organizations) {
      if (this.organizations.size <= this.maxOrganizations && this.tracked <= this.maxTrackedTotal) return;
      if (list === using) continue;
      this.organizations.delete(organizationId);
      this.tracked -= list.counted;
    }
  }

  /** Reads the organization's private items created since the highest id read, if the corpus moved since. */
  private async refresh(
    list: OrganizationList,
    organizationId: number,
    revision: () => Promise<string>,
    nowMs: number,
  ): Promise<void> {
    const current = await revision();
    list.refreshedAtMs = nowMs;
    if (current === list.revision) return;
    while (list.owners.size < MAX_TRACKED_ITEMS) {
      // Only tool_private items have an owner, and the sparse index on it holds them alone: the organization is
      // checked here, not in the filter, for the store to read that index and not the organization's every item
      // (SQLite's planner took the organization's index: 24 ms for 7,183 items against 7 ms for 2,000 notes).
      // Item ids are global, so every organization's list can start after the highest id it read.
      const { items } = await this.readStore.find<MemoryItemDocument>(MEMORY_ITEMS, {
        filter: {
          owner_client_key: { $ne: null },
          visibility: 'tool_private',
          memory_item_id: { $gt: list.maxId },
        },
        sort: [{ field: 'memory_item_id', direction: 'asc' }],
        limit: PAGE,
      });
      for (const item of items) {
        if (list.owners.size >= MAX_TRACKED_ITEMS) break;
        if (item.organization_id === organizationId && item.owner_client_key !== null)
          list.owners.set(item.memory_item_id, item.owner_client_key);
        list.maxId = Math.max(list.maxId, item.memory_item_id);
      }
      if (items.length < PAGE) break;
    }
    list.revision = current;
    // A list dropped while it was read counts no more (its search still uses it).
    if (this.organizations.get(organizationId) === list) {
      this.tracked += list.owners.size - list.counted;
      list.counted = list.owners.size;
      this.keepWithinBounds(list);
    }
  }

  /** The excluded set for `owner` (EVERY_OWNER: all), rebuilt when the list grew since it was built. */
  private setOf(list: OrganizationList, owner: string): ReadonlySet<number> {
    const cached = list.sets.get(owner);
    if (cached !== undefined && cached.builtAt === list.owners.size) return cached.set;
    const set = new Set<number>();
    for (const [id, itemOwner] of list.owners) {
      if (set.size >= MAX_EXCLUDED_VALUES) break;
      if (owner === EVERY_OWNER || itemOwner !== owner) set.add(id);
    }
    list.sets.delete(owner);
    if (list.sets.size >= MAX_SETS_PER_ORGANIZATION) {
      // The least recently built (Map keeps insertion order; a rebuilt set is inserted again).
      const oldest = list.sets.keys().next().value;
      if (oldest !== undefined) list.sets.delete(oldest);
    }
    list.sets.set(owner, { builtAt: list.owners.size, set });
    return set;
  }
}
