import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The public directory API and its pages: readable from any website, never with credentials. */
const PUBLIC_PREFIXES = ['/api/cairn-client-pages', '/clients'];
/** The connector REST API. */
const CONNECTOR_REST = '/app/api/tool-connectors';
/** The connector API (REST and MCP): only the origins CAIRN_CORS_ORIGINS lists. */
const CONNECTOR_PREFIXES = [CONNECTOR_REST, '/mcp'];

const underAny = (path: string, prefixes: string[]): boolean =>
  prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

const PUBLIC: FastifyCorsOptions = {
  origin: '*',
  credentials: false,
  methods: ['GET', 'HEAD'],
  exposedHeaders: ['ETag', 'Last-Modified', 'Retry-After'],
  maxAge: 86_400,
};
const CLOSED: FastifyCorsOptions = { origin: false };

/** The CORS policy of one request path or route pattern (ARCHITECTURE.md "Configuration": CAIRN_CORS_ORIGINS). */
export function corsPolicy(path: string, connectorOrigins: string[]): FastifyCorsOptions {
  if (underAny(path, PUBLIC_PREFIXES)) return PUBLIC;
  if (connectorOrigins.length > 0 && underAny(path, CONNECTOR_PREFIXES)) {
    return {
      origin: connectorOrigins,
      credentials: false, // bearer tokens travel in Authorization, never in cookies
      methods: ['GET', 'POST', 'DELETE'],
      allowedHeaders: [
        'authorization',
        'content-type',
        'accept',
        'x-request-id',
        'mcp-protocol-version',
        'mcp-session-id',
        'last-event-id',
      ],
      // What a browser script may read of an answer (MCP's too: its controller copies these headers, see there).
      exposedHeaders: ['Retry-After', 'WWW-Authenticate', 'X-Request-Id', 'Mcp-Session-Id'],
      maxAge: 600,
    };
  }
  return CLOSED;
}

/** An OPTIONS request that is not a preflight the policy answers (those end in the CORS hook). */
function notFound(_request: FastifyRequest, reply: FastifyReply): void {
  reply.callNotFound();
}

/**
 * Answers CORS requests and preflights (OPTIONS) by path; elsewhere no CORS header and OPTIONS is a 404.
 *
 * Each route carries its policy (`config.cors`, set once when the route is registered; @fastify/cors merges it into
 * its closed default), and the open paths get OPTIONS routes of their own for preflights. Choosing the policy per
 * request instead (the plugin's `delegator`, which also re-normalizes the options every time) cost about 5% of a
 * search's CPU in paired runs.
 */
export async function registerCors(app: NestFastifyApplication, connectorOrigins: string[]): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRoute', (route) => {
    const policy = corsPolicy(route.url, connectorOrigins);
    if (policy !== CLOSED) route.config = { ...route.config, cors: policy };
  });
  await app.register(fastifyCors, CLOSED);
  // Not /mcp: its controller's route takes every method, OPTIONS included, and carries the policy already.
  const open = [...PUBLIC_PREFIXES, ...(connectorOrigins.length > 0 ? [CONNECTOR_REST] : [])];
  for (const prefix of open) {
    fastify.options(prefix, notFound);
    fastify.options(`${prefix}/*`, notFound);
  }
}
