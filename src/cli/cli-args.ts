import { ValidationFailedError } from '../common/errors';

/** A positional id: a positive safe integer written in decimal. */
export function parseId(value: string | undefined, name: string): number {
  if (value === undefined || !/^[1-9]\d{0,15}$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new ValidationFailedError(`${name} must be a positive integer id`, [
      { field: name, message: 'positive integer' },
    ]);
  }
  return Number(value);
}

/** A non-negative integer option value. */
export function parseCount(value: string, name: string): number {
  if (!/^\d{1,15}$/.test(value)) {
    throw new ValidationFailedError(`${name} must be a non-negative integer`, [
      { field: name, message: 'integer >= 0' },
    ]);
  }
  return Number(value);
}

/** `a,b,c` → ['a','b','c'] (blank items dropped). */
export function parseList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export function requireOption<T>(value: T | undefined, flag: string): T {
  if (value === undefined) {
    throw new ValidationFailedError(
      `missing required option ${flag}`,
      [{ field: flag, message: 'required' }],
      'usage_error',
    );
  }
  return value;
}

export function expectArgs(params: string[], count: number, usage: string): void {
  if (params.length !== count) {
    throw new ValidationFailedError(
      `usage: cairn ${usage}`,
      [{ message: `expected ${count} argument(s), got ${params.length}` }],
      'usage_error',
    );
  }
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], name: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ValidationFailedError(`${name} must be one of ${allowed.join(', ')}`, [
      { field: name, message: `one of ${allowed.join(', ')}` },
    ]);
  }
  return value as T;
}
