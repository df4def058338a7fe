import type { MemoryItemDocument } from '../../projections/memory.projection';

/** An item not revised (or re-dated) for this long is `stale`. */
export const STALE_AFTER_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

export type FreshnessCategory = 'current' | 'stale' | 'expired';

type FreshnessDates = Pick<
  MemoryItemDocument,
  'expires_at' | 'effective_at' | 'source_date' | 'revision_date'
>;

/**
 * Each item's dates as milliseconds, once per item object: a search answers from cached items (search-memory
 * handler), and parsing two ISO dates for each of a limit-100 search's results cost ~40–80 µs a search. Nothing
 * assigns an item's dates after it is read (items are replaced, never edited), so an object's dates never change.
 */
const parsed = new WeakMap<object, { expires: number | null; reference: number }>();

function datesOf(item: FreshnessDates): { expires: number | null; reference: number } {
  let dates = parsed.get(item);
  if (dates === undefined) {
    dates = {
      expires: item.expires_at === null ? null : Date.parse(item.expires_at),
      reference: Date.parse(item.effective_at ?? item.source_date ?? item.revision_date),
    };
    parsed.set(item, dates);
  }
  return dates;
}

/**
 * `expired`: past `expires_at` (excluded from search by default). `stale`: its reference date — `effective_at`,
 * else `source_date`, else when the current revision was recorded — is older than STALE_AFTER_DAYS. Else `current`.
 */
export function freshnessOf(item: FreshnessDates, nowMs: number): FreshnessCategory {
  const { expires, reference } = datesOf(item);
  if (expires !== null && expires <= nowMs) return 'expired';
  return nowMs - reference > STALE_AFTER_DAYS * DAY_MS ? 'stale' : 'current';
}
