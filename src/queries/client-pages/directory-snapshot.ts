/**
 * The public directory held in memory, one snapshot per directory revision (the client-pages projection counts
 * every change of a published entry). A list request reads the revision (one small document) and, when it is
 * the snapshot's, filters and pages in memory: no sort or substring scan in the store per request. Any process
 * sees a new revision on its next request, whichever process projected it. Memory: about 1 KB per published
 * page (the directory's JSON plus three orders of references).
 */
import type { ClientPageDocument } from '../../projections/client-pages.projection';
import type { DirectorySort } from './directory-options';

type Compare = (a: ClientPageDocument, b: ClientPageDocument) => number;

/** Code-point order of two strings (what SQLite's BINARY collation does on UTF-8). */
function order(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every order ends with the slug (unique among pages), so pages never repeat or skip an entry. */
const ORDERS: Record<DirectorySort, Compare> = {
  name: (a, b) => order(a.name_key, b.name_key) || order(a.slug, b.slug),
  newest: (a, b) => order(b.published_at, a.published_at) || order(a.slug, b.slug),
  updated: (a, b) => order(b.updated_at, a.updated_at) || order(a.slug, b.slug),
};

export class DirectorySnapshot {
  private readonly sorted: Record<DirectorySort, ClientPageDocument[]>;

  constructor(
    readonly revision: number,
    published: readonly ClientPageDocument[],
  ) {
    this.sorted = {
      name: [...published].sort(ORDERS.name),
      newest: [...published].sort(ORDERS.newest),
      updated: [...published].sort(ORDERS.updated),
    };
  }

  /** One page of the entries whose search text contains `needle` (already folded; '' matches all), in order. */
  page(
    sort: DirectorySort,
    needle: string,
    offset: number,
    limit: number,
  ): { items: ClientPageDocument[]; total: number } {
    const all = this.sorted[sort];
    if (needle === '') return { items: all.slice(offset, offset + limit), total: all.length };
    const items: ClientPageDocument[] = [];
    let total = 0;
    for (const doc of all) {
      if (!doc.search_text.includes(needle)) continue;
      if (total >= offset && items.length < limit) items.push(doc);
      total++;
    }
    return { items, total };
  }
}
