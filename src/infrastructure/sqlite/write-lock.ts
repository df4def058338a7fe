/**
 * Taking SQLite's write lock when another process holds it, without the naps of SQLite's own busy handler.
 *
 * The embedded stores are shared by processes (HTTP workers, the CLI), and every append takes the one write
 * lock of the file for some tens of microseconds. SQLite's busy handler (busy_timeout) answers a held lock by
 * sleeping 1 ms, then 2, 5, 10… : with two HTTP workers each appending a recall trace per search, about one
 * append in seven took over 0.9 ms, longer than the rest of the search. Here a
 * writer that finds the lock taken retries after FIRST_NAP_MS, doubling up to MAX_NAP_MS, until the connection's
 * own busy timeout has passed (then SQLITE_BUSY is thrown as before).
 */
import { isSqliteBusy, type SqliteDatabase } from './sqlite-connection';

const FIRST_NAP_MS = 0.02;
const MAX_NAP_MS = 2;

/** One cell to wait on: Atomics.wait on it is a thread sleep with sub-millisecond resolution. */
const NAP_CELL = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread for `ms` (fractions allowed), as SQLite's busy handler does, only shorter. */
function nap(ms: number): void {
  Atomics.wait(NAP_CELL, 0, 0, ms);
}

export class WriteLock {
  private readonly timeoutMs: number;
  private readonly waitAsConfigured: string;

  constructor(private readonly db: SqliteDatabase) {
    this.timeoutMs = Number(db.pragma('busy_timeout', { simple: true }));
    // Executed each time (the pair about 1 µs in a loop, 15 µs inside a search request): this pragma acts when
    // compiled, so a prepared one would not.
    this.waitAsConfigured = `PRAGMA busy_timeout = ${this.timeoutMs}`;
  }

  /**
   * Runs `write`, a synchronous write that takes the lock first (a `.immediate()` transaction or one
   * autocommit statement), retrying it while another connection holds the lock. Synchronous like the write:
   * no other statement of this connection runs in between, so its busy timeout is only off for this call.
   */
  run<T>(write: () => T): T {
    this.db.exec('PRAGMA busy_timeout = 0');
    try {
      const deadline = performance.now() + this.timeoutMs;
      for (let wait = FIRST_NAP_MS; ; wait = Math.min(wait * 2, MAX_NAP_MS)) {
        try {
          return write();
        } catch (error) {
          // A rolled-back transaction or a refused statement changed nothing: trying again is safe.
          if (!isSqliteBusy(error) || performance.now() + wait > deadline) throw error;
          nap(wait);
        }
      }
    } finally {
      this.db.exec(this.waitAsConfigured);
    }
  }
}
