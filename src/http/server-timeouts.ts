import type { ServerOptions } from 'node:http';
import type { HttpTimeouts } from '../config/config';

/** Node checks the headers and request deadlines on a timer; at most this long between two checks. */
const MAX_CHECK_INTERVAL_MS = 1000;

/**
 * The Node HTTP server's deadlines for slow and idle clients (docs/hardening.md#slow-and-idle-connections).
 * Fastify's own defaults leave the headers and request deadlines off (0), so a client that opens a connection and
 * never finishes its headers would hold it forever. Node enforces both only when its connection check runs
 * (every 30 s by default); here it runs at least four times per headers timeout, at most once a second, so a
 * connection is closed within the deadline plus one interval.
 */
export function httpServerTimeouts(timeouts: HttpTimeouts): {
  http: ServerOptions;
  requestTimeout: number;
  keepAliveTimeout: number;
} {
  const checkEvery = Math.max(25, Math.min(MAX_CHECK_INTERVAL_MS, Math.floor(timeouts.headersMs / 4)));
  return {
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: checkEvery,
    },
    // Fastify sets these two on the server again after creating it.
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
  };
}
