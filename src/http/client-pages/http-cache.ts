import etag from 'etag';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';

/** Seconds a shared or private cache may reuse a public client page response without asking again. */
export const PUBLIC_MAX_AGE_SECONDS = 60;

export interface CacheableContent {
  body: string;
  contentType: string;
  /** When the content last changed (ISO 8601), or null when unknown (no Last-Modified then). */
  lastModified: string | null;
  maxAgeSeconds?: number;
  /** More headers for both the 200 and the 304 (security headers). */
  headers?: Record<string, string>;
}

/**
 * The one way the public client pages answer (API, HTML and stylesheet): a strong `ETag` of the exact body,
 * `Last-Modified` from the read model, `Cache-Control: public, max-age=60`; a conditional request that still
 * matches (`If-None-Match`, which takes precedence, or `If-Modified-Since`; `*` matches) gets 304 with no body.
 */
export function sendCacheable(request: FastifyRequest, reply: FastifyReply, content: CacheableContent): void {
  const headers: Record<string, string> = {
    'cache-control': `public, max-age=${content.maxAgeSeconds ?? PUBLIC_MAX_AGE_SECONDS}`,
    etag: etag(content.body),
    'x-content-type-options': 'nosniff',
    ...content.headers,
  };
  if (content.lastModified !== null) headers['last-modified'] = new Date(content.lastModified).toUTCString();
  // Only the preconditions are passed: an origin server evaluates them whatever the request's Cache-Control says
  // (RFC 9110 §13.2.1). `fresh` would treat `Cache-Control: no-cache` as "never 304", but no-cache asks caches to
  // revalidate with the origin, and a 304 is exactly that validation (fetch() sends no-cache with every
  // conditional request).
  const preconditions = {
    'if-none-match': request.headers['if-none-match'],
    'if-modified-since': request.headers['if-modified-since'],
  };
  if (fresh(preconditions, { etag: headers.etag, 'last-modified': headers['last-modified'] })) {
    void reply.status(304).headers(headers).send();
    return;
  }
  void reply.status(200).headers(headers).type(content.contentType).send(content.body);
}
