import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../../common/errors';

export const CONSOLE_PATH = '/admin/console';
export const SESSION_COOKIE = 'cairn_console';
/** A console session lasts at most this long; then the operator signs in again. */
const SESSION_SECONDS = 8 * 60 * 60;

/** The operator token the console's cookie holds (undefined: none). */
export function sessionToken(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/**
 * The session cookie: the operator token itself, HttpOnly (no script reads it), SameSite=Strict (no other site's
 * page sends it), Path=/admin/console, Secure when the request came over HTTPS.
 */
export function setSession(reply: FastifyReply, request: FastifyRequest, token: string | null): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  const value = token === null ? '' : encodeURIComponent(token);
  const age = token === null ? 0 : SESSION_SECONDS;
  void reply.header(
    'set-cookie',
    `${SESSION_COOKIE}=${value}; Path=${CONSOLE_PATH}; HttpOnly; SameSite=Strict; Max-Age=${age}${secure}`,
  );
}

/** The CSRF token of a session: derived from its operator token, so only a page of this session can know it. */
export function csrfToken(token: string): string {
  return createHmac('sha256', token).update('cairn-console-csrf').digest('base64url');
}

/**
 * A console POST must carry the session's CSRF token in its form, and come from this origin when the browser says
 * where it came from (Origin); else 403 `csrf_failed`. With the SameSite=Strict cookie, a page of another site can
 * neither send the session nor know the token.
 */
export function assertCsrf(request: FastifyRequest, token: string, given: unknown): void {
  const origin = request.headers.origin;
  const host = request.headers.host;
  const sameOrigin = origin === undefined || (host !== undefined && new URL(origin).host === host);
  const expected = Buffer.from(csrfToken(token));
  const actual = Buffer.from(typeof given === 'string' ? given : '');
  if (!sameOrigin || actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    throw new ForbiddenError('the form is stale or came from another site; reload the page', 'csrf_failed');
  }
}
