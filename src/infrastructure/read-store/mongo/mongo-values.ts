/**
 * Shared by the MongoDB read store's files: error and value checks. Plain data: this file does not import the
 * driver (mongo-read-store.ts is the only file that does; mongo-coordination.ts imports its types only).
 */

/** MongoDB's duplicate key error (E11000). */
const DUPLICATE_KEY = 11000;

/**
 * Whether an error a driver call threw is a duplicate key error: told by its server error code, which the
 * driver's MongoServerError (and MongoBulkWriteError) carry, so no driver class is needed here.
 */
export function isDuplicateKey(error: unknown): boolean {
  return error instanceof Error && (error as Error & { code?: unknown }).code === DUPLICATE_KEY;
}

/** A stored number (or bigint) as a safe integer; RangeError otherwise. */
export function toSafeInteger(value: unknown, what: string): number {
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n))
    throw new RangeError(`${what} is not a safe integer`);
  return n;
}
