import type { MemoryItemDocument } from '../../projections/memory.projection';

/** An item not revised (or re-dated) for this long is `stale`. */
export const STALE_AFTER_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

export type FreshnessCategory = 'current' | 'stale' | 'expired';

/**
 * `expired`: past `expires_at` (excluded from search by default). `stale`: its reference date — `effective_at`,
 * else `source_date`, else when the current revision was recorded — is older than STALE_AFTER_DAYS. Else `current`.
 */
export function freshnessOf(
  item: Pick<MemoryItemDocument, 'expires_at' | 'effective_at' | 'source_date' | 'revision_date'>,
  nowMs: number,
): FreshnessCategory {
  if (item.expires_at !== null && Date.parse(item.expires_at) <= nowMs) return 'expired';
  const reference = Date.parse(item.effective_at ?? item.source_date ?? item.revision_date);
  return nowMs - reference > STALE_AFTER_DAYS * DAY_MS ? 'stale' : 'current';
}
