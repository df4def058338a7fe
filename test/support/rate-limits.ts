/**
 * Tests send many requests with one token in a second; the connector rate limits are off unless a test sets them
 * (test/integration/connector-rate-limit.spec.ts does).
 */
export const CONNECTOR_RATE_LIMITS_OFF = {
  CAIRN_RATE_LIMIT_SEARCH: '0',
  CAIRN_RATE_LIMIT_WRITES: '0',
  CAIRN_RATE_LIMIT_REPLIES: '0',
};
