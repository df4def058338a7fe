import type { ExpectedRevision } from './event-store.port';

/** The stream's revision did not match what the writer expected: another writer won. */
export class WrongExpectedVersionError extends Error {
  override readonly name = 'WrongExpectedVersionError';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    /** The stream's actual revision, or null when it does not exist. */
    readonly actual: number | null,
  ) {
    super(
      `stream ${stream}: expected revision ${String(expected)}, actual ${actual === null ? 'no stream' : actual}`,
    );
  }
}
