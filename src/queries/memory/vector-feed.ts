import type { ReadStore } from '../../infrastructure/read-store/read-store.port';
import { MEMORY_VECTORS, type MemoryVectorDocument } from '../../projections/memory-vectors.projection';

/** Rows of the change feed read per query. */
const FEED_PAGE = 5000;

/**
 * The memory-vectors read model as a change feed: every row (vectors and tombstones) written after position
 * `after`, in position order, page by page. Returns the rows read.
 */
export async function readVectorFeed(
  readStore: ReadStore,
  after: number,
  onPage: (rows: MemoryVectorDocument[]) => Promise<void> | void,
): Promise<number> {
  let from = after;
  let skip = 0;
  let read = 0;
  for (;;) {
    const page = await readStore.find<MemoryVectorDocument>(MEMORY_VECTORS, {
      filter: skip === 0 ? { position: { $gt: from } } : { position: { $gte: from } },
      sort: [{ field: 'position', direction: 'asc' }],
      limit: FEED_PAGE,
      offset: skip,
    });
    read += page.items.length;
    await onPage(page.items);
    if (page.items.length < FEED_PAGE) return read;
    // The next page starts after the last position, or further into it when one position spans pages.
    const last = page.items[page.items.length - 1].position;
    const atLast = page.items.filter((row) => row.position === last).length;
    if (skip > 0 && last === from) skip += atLast;
    else {
      from = last;
      skip = atLast;
    }
  }
}
