import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

/** The public directory API and its pages: readable from any website, never with credentials. */
const PUBLIC_PREFIXES = ['/api/cairn-client-pages', '/clients'];
/** The connector API (REST and MCP): only the origins CAIRN_CORS_ORIGINS lists. */
const CONNECTOR_PREFIXES = ['/app/api/tool-connectors/', '/mcp'];

const underAny = (path: string, prefixes: string[]): boolean =>
  prefixes.some((prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));

const PUBLIC: FastifyCorsOptions = {
  origin: '*',
  credentials: false,
  methods: ['GET', 'HEAD'],
  exposedHeaders: ['ETag', 'Last-Modified', 'Retry-After'],
  maxAge: 86_400,
};
const CLOSED: FastifyCorsOptions = { origin: false };

/** The CORS policy of one request path (ARCHITECTURE.md "Configuration": CAIRN_CORS_ORIGINS). */
export function corsPolicy(path: string, connectorOrigins: string[]): FastifyCorsOptions {
  if (underAny(path, PUBLIC_PREFIXES)) return PUBLIC;
  if (connectorOrigins.length > 0 && underAny(path, CONNECTOR_PREFIXES)) {
    return {
      origin: connectorOrigins,
      credentials: false, // bearer tokens travel in Authorization, never in cookies
      methods: ['GET', 'POST', 'DELETE'],
      allowedHeaders: ['authorization', 'content-type', 'accept', 'mcp-protocol-version', 'last-event-id'],
      exposedHeaders: ['Retry-After', 'WWW-Authenticate'],
      maxAge: 600,
    };
  }
  return CLOSED;
}

/** Answers CORS requests and preflights (OPTIONS) by path; elsewhere no CORS header and OPTIONS is a 404. */
export async function registerCors(app: NestFastifyApplication, connectorOrigins: string[]): Promise<void> {
  await app.register(fastifyCors, {
    delegator: (request: FastifyRequest, callback) =>
      callback(null, corsPolicy(request.url.split('?')[0], connectorOrigins)),
  });
}
