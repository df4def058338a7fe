import { toMemoryItemView } from '../../queries/memory/memory-item-view';
import { publicLinksOnly } from '../../safety/link-text';
import { buildContextPackage } from '../../queries/memory/context-package';
import type { SearchMemoryResult } from '../../queries/memory/search-memory.query';

/** Spec §4.1 response: `{ok, trace_id, results, context_package?}`. */
export function searchResponse(
  traceId: number,
  query: string,
  found: SearchMemoryResult,
  withContext: boolean,
): object {
  const now = Date.now();
  const results = found.items.map((ranked) => toMemoryItemView(ranked.item, ranked.chunk_ids, now));
  if (!withContext) return { ok: true, trace_id: traceId, results };
  const context_package = buildContextPackage(
    query,
    found.items.map((ranked) => ({
      memory_item_id: ranked.item.memory_item_id,
      memory_source_id: ranked.item.memory_source_id,
      // Invariant 5: a context package is text that leaves; non-public links in it are withheld.
      title: publicLinksOnly(ranked.item.title),
      type: ranked.item.type,
      excerpt: publicLinksOnly(ranked.excerpt || ranked.item.summary),
    })),
  );
  return { ok: true, trace_id: traceId, results, context_package };
}
