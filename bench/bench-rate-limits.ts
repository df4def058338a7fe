/**
 * One load generator is one connector token: the connector rate limits are set to their maximum for a bench, so
 * every request still pays for its counter (one upsert in the shared store) but none is refused.
 */
export const BENCH_RATE_LIMITS = {
  CAIRN_RATE_LIMIT_SEARCH: '10000000',
  CAIRN_RATE_LIMIT_WRITES: '10000000',
  CAIRN_RATE_LIMIT_REPLIES: '10000000',
};
