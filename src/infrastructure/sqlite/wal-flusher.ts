/**
 * Group commit for the embedded event store. Commits run with synchronous=NORMAL (SQLite writes the WAL frames
 * but does not wait for the disk); before an append is acknowledged, `flush()` waits for an fdatasync of the
 * WAL file that started after the commit. That is what synchronous=FULL does inside every commit, but:
 *
 * - SQLite's write lock is not held during the sync, so other processes' writers do not wait for it;
 * - one sync covers every commit before it, of this process and of others (fdatasync is per file), so
 *   concurrent appends share one;
 * - a slow disk's sync runs on libuv's thread pool, so the event loop keeps serving while the disk works. A fast
 *   disk's runs in the event loop's thread (`inlineUpToMs`): the thread pool's round trip (handing the sync to a
 *   pool thread, waking the event loop when it is done) cost ~150 µs an append here, more than the sync's own
 *   time, and the loop holds still for no longer than a sync takes. Which of the two follows the recent syncs'
 *   durations, so a disk that slows down moves the syncs off the event loop.
 *
 * A commit is in the operating system's cache when it returns: a process crash loses nothing; a power loss
 * can lose only commits whose flush had not completed, i.e. appends not yet acknowledged. WAL frames are
 * checksummed in order, so what survives is always a prefix of the commits.
 */
import { fdatasync, fdatasyncSync, openSync, closeSync } from 'node:fs';

export type Sync = () => Promise<void>;

/** A sync in the event loop's thread is allowed while recent syncs averaged at most this (WalFlusherOptions). */
export const INLINE_SYNC_UP_TO_MS = 1;
/** Weight of the latest sync's duration in the running average that decides where the next one runs. */
const AVERAGE_WEIGHT = 0.2;

export interface WalFlusherOptions {
  /**
   * Syncs run in the event loop's thread (`syncNow`) while the recent ones averaged at most this many milliseconds
   * (an exponential average over every sync, wherever it ran); else on the thread pool (`sync`). Absent: always on
   * the thread pool.
   */
  inlineUpToMs?: number;
  /** Milliseconds, for timing syncs (default performance.now). */
  now?: () => number;
}

export class WalFlusher {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private relaxedDepth = 0;
  /** A sync promised by flushWithin(), not started yet. */
  private scheduled: NodeJS.Timeout | null = null;
  /** Running average of the syncs' durations (ms); null: none timed yet. */
  private averageMs: number | null = null;
  private readonly now: () => number;

  constructor(
    private readonly sync: Sync,
    private readonly syncNow: () => void = () => undefined,
    private readonly options: WalFlusherOptions = {},
  ) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Where the next sync runs: 'inline' (the event loop's thread) or 'pool'. */
  get nextSyncRuns(): 'inline' | 'pool' {
    const limit = this.options.inlineUpToMs;
    if (limit === undefined) return 'pool';
    return (this.averageMs ?? 0) <= limit ? 'inline' : 'pool';
  }

  /**
   * Resolves once everything committed before the call is on disk. The sync starts in a later microtask, after
   * the current one and after any sync under way (which may have started before the caller's commit): callers
   * until then share it.
   */
  flush(): Promise<void> {
    if (this.relaxedDepth > 0) return Promise.resolve();
    if (this.queued !== null) return this.queued;
    const start = (): Promise<void> => this.start();
    const next = (this.running ?? Promise.resolve()).then(start, start);
    this.queued = next;
    return next;
  }

  /**
   * Everything committed before the call reaches the disk within about `ms`, nobody waiting for it: with the next
   * sync that starts anyway (any flush()), else with one a timer starts. Many calls in that time share one sync
   * (for appends acknowledged once committed, which would otherwise cost a sync each). A failed sync goes to
   * `onError`.
   */
  flushWithin(ms: number, onError: (error: unknown) => void): void {
    if (this.relaxedDepth > 0 || this.scheduled !== null) return;
    this.scheduled = setTimeout(() => {
      this.scheduled = null;
      this.flush().catch(onError);
    }, ms);
    // A pending timer never keeps the process alive: closing the store flushes.
    this.scheduled.unref();
  }

  /**
   * Bulk writes: flush() stops waiting until end() (commits still survive a process crash; a power loss during
   * the run can lose its latest ones, and the idempotent run is repeated). end() syncs before returning.
   */
  relax(): { end(): void } {
    this.relaxedDepth += 1;
    let ended = false;
    return {
      end: () => {
        if (ended) return;
        ended = true;
        this.relaxedDepth -= 1;
        this.syncNow();
      },
    };
  }

  private start(): Promise<void> {
    this.queued = null;
    // This sync starts after every commit a scheduled one was promised for: it keeps that promise.
    if (this.scheduled !== null) {
      clearTimeout(this.scheduled);
      this.scheduled = null;
    }
    const started = this.now();
    if (this.nextSyncRuns === 'inline') {
      // In a microtask of the turn that flushed: every caller of this turn shares it, as they would a pooled one.
      try {
        this.syncNow();
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      } finally {
        this.timed(started);
      }
      return Promise.resolve();
    }
    const run = this.sync().finally(() => {
      this.timed(started);
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  private timed(started: number): void {
    const ms = this.now() - started;
    this.averageMs = this.averageMs === null ? ms : this.averageMs + AVERAGE_WEIGHT * (ms - this.averageMs);
  }
}

/**
 * A flusher for the WAL of the SQLite file at `path` (open in WAL mode, so its `-wal` file exists); syncs run in
 * the event loop's thread while they average at most INLINE_SYNC_UP_TO_MS.
 */
export function walFlusherFor(
  path: string,
  options: WalFlusherOptions = { inlineUpToMs: INLINE_SYNC_UP_TO_MS },
): { flusher: WalFlusher; close(): void } {
  let fd: number | null = null;
  // Opened on first use; the WAL file is kept (same inode) while any connection has the database open.
  const descriptor = (): number => (fd ??= openSync(`${path}-wal`, 'r+'));
  const flusher = new WalFlusher(
    () =>
      new Promise<void>((resolve, reject) =>
        fdatasync(descriptor(), (error) => (error ? reject(error) : resolve())),
      ),
    () => fdatasyncSync(descriptor()),
    options,
  );
  return {
    flusher,
    close: () => {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
