import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A client's `X-Request-Id` is honoured when it is 1–128 characters of `A-Z a-z 0-9 . _ : -`; else a new UUID. */
const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTED.test(given) ? given : randomUUID();
}
