import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IssuedToken } from './connector.decider';

export const TOKEN_PREFIX = 'cairn_';
/** `cairn_` + 43 base64url characters = 256 random bits. */
export const TOKEN_PATTERN = /^cairn_[A-Za-z0-9_-]{43}$/;

/** A new bearer token (shown once) and what is stored of it (its SHA-256 and an id). */
export function generateToken(): { token: string; issued: IssuedToken } {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, issued: { token_id: `tok_${randomUUID()}`, token_sha256: sha256Hex(token) } };
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** A public client key: `ck_` + 128 random bits, base64url. Not a secret. */
export function generateClientKey(): string {
  return `ck_${randomBytes(16).toString('base64url')}`;
}
