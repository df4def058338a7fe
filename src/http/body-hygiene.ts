import type { ErrorDetail } from '../common/errors';
import { validationError } from './errors/error-response';

/**
 * Keys refused anywhere in a body, like any unknown field: they name JavaScript's prototype machinery and no
 * Cairn body has a field by these names (prototype poisoning, and class-transformer silently dropping them).
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** At most this many details in one refusal. */
const MAX_DETAILS = 20;

const NUL = '\u0000';
/** A high surrogate not followed by a low one, or a low one not preceded by a high one (code units, no u flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function stringProblem(value: string): string | null {
  if (value.includes(NUL)) return 'must not contain NUL (U+0000) characters';
  if (LONE_SURROGATE.test(value)) return 'must not contain lone UTF-16 surrogates';
  return null;
}

function join(parent: string, key: string | number): string {
  return parent === '' ? String(key) : `${parent}.${key}`;
}

/**
 * Walks a parsed body (iteratively: its depth is already bounded, but no recursion is needed) and throws one 422
 * `validation_failed` naming every field that is a forbidden key or whose key or string value holds a NUL
 * character or a lone surrogate. Refused, never normalized: what is stored is what the client sent.
 */
export function assertBodyHygiene(body: unknown): void {
  const details: ErrorDetail[] = [];
  const pending: Array<{ path: string; value: unknown }> = [{ path: '', value: body }];
  while (pending.length > 0 && details.length < MAX_DETAILS) {
    const { path, value } = pending.pop()!;
    if (typeof value === 'string') {
      const problem = stringProblem(value);
      if (problem) details.push({ field: path || 'body', message: `${path || 'body'} ${problem}` });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push({ path: join(path, i), value: value[i] });
    } else if (typeof value === 'object' && value !== null) {
      const children: Array<{ path: string; value: unknown }> = [];
      for (const [key, child] of Object.entries(value)) {
        const field = join(path, key);
        const keyProblem = stringProblem(key);
        if (FORBIDDEN_KEYS.has(key)) {
          details.push({ field, message: `property ${key} should not exist` });
        } else if (keyProblem) {
          details.push({ field, message: `the key of ${field} ${keyProblem}` });
        } else {
          children.push({ path: field, value: child });
        }
      }
      pending.push(...children.reverse());
    }
  }
  if (details.length > 0) throw validationError(details);
}
