/** Shared by the MongoDB read store's files: error and value checks. */
import { MongoServerError } from 'mongodb';

const DUPLICATE_KEY = 11000;

export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
}

/** A stored number (or bigint) as a safe integer; RangeError otherwise. */
export function toSafeInteger(value: unknown, what: string): number {
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n))
    throw new RangeError(`${what} is not a safe integer`);
  return n;
}
