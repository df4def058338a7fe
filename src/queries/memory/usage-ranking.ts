/**
 * The usage ranking signal: a result's lexical score is multiplied by
 * `1 + 0.1·ln(1 + used) − 0.1·ln(1 + ignored)`, clamped to [0.5, 1.5], where `used`/`ignored` count the recall
 * traces (latest report of each) in which the item was reported useful or not. Reports nudge the order of
 * similarly relevant items; they cannot lift an irrelevant item over a clearly better match.
 */
export const MIN_USAGE_MULTIPLIER = 0.5;
export const MAX_USAGE_MULTIPLIER = 1.5;

export function usageMultiplier(used: number, ignored: number): number {
  const raw = 1 + 0.1 * Math.log1p(Math.max(0, used)) - 0.1 * Math.log1p(Math.max(0, ignored));
  return Math.min(MAX_USAGE_MULTIPLIER, Math.max(MIN_USAGE_MULTIPLIER, raw));
}
