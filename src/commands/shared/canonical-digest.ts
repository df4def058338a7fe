import { createHash } from 'node:crypto';
import { canonicalize } from 'json-canonicalize';

/** SHA-256 (hex) of the canonical JSON (RFC 8785) of `value`: the same for any key order. */
export function canonicalDigest(value: unknown): string {
  return createHash('sha256').update(canonicalize(value), 'utf8').digest('hex');
}

/**
 * The first retry key present, in the caller's order of precedence (an empty string counts as absent), or null
 * when none is.
 */
export function firstRetryKey<K extends string>(
  candidates: ReadonlyArray<readonly [K, string | null | undefined]>,
): { key_kind: K; key: string } | null {
  for (const [key_kind, key] of candidates) {
    if (typeof key === 'string' && key.length > 0) return { key_kind, key };
  }
  return null;
}
