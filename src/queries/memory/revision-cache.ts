/** Entries remembered per organization before its cache starts over. */
const MAX_ENTRIES_PER_ORGANIZATION = 50_000;

/**
 * Per-organization caches of read models by item id, each valid for one revision string of the organization
 * (a digest its projection moves in the same commit as any change to those read models, by any process): a
 * search that reads the revision first and takes the cache `at` it never sees a stale entry. `null` entries
 * remember that a read found nothing.
 *
 * - Items: the corpus `index_revision` (any item created, revised or archived).
 * - Usage counts: the organization's usage revision (any count changed).
 * - A connector's own tool_private items, by client key: the corpus `index_revision` (own-private-items.ts).
 */
export class RevisionCache<V, K = number> {
  private readonly organizations = new Map<number, { revision: string; entries: Map<K, V | null> }>();

  /** The cache for this organization at this revision (emptied when the revision moved, or when full). */
  at(organizationId: number, revision: string): Map<K, V | null> {
    const current = this.organizations.get(organizationId);
    if (current && current.revision === revision && current.entries.size < MAX_ENTRIES_PER_ORGANIZATION)
      return current.entries;
    const fresh = { revision, entries: new Map<K, V | null>() };
    this.organizations.set(organizationId, fresh);
    return fresh.entries;
  }
}
