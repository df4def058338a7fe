/**
 * Batches that grow while a projection lags (Projection.batchesGrowWhileLagging): after consecutive steps that
 * each found new events, the next step waits until LAG_BATCH_START events are there, then twice as many as the
 * last step applied (up to the runner's batch size), for at most LAG_WAIT_MS since the last step. Never while
 * anyone waits for the projection (ProjectionRunner.waitFor: a write that reads its own writes, a rebuild), so
 * only streams of writes that do not wait for their read models (bulk ingestion) are batched this way.
 *
 * A bulk load (bulk(): memory:ingest) goes further: while one runs in this process, such a step also waits when
 * nothing is pending yet, for up to BULK_WAIT_MS. Without that, a projection that keeps pace with the load applies
 * it in tiny steps (measured: 24 events, 8 documents, a step through a whole 100k-chunk ingestion), and each step
 * rewrites every search term its documents touch: 544 chunks/s over 20,000 chunks against 1,262 with the bulk wait.
 */
import type { EventStore } from '../infrastructure/event-store/event-store.port';

export const LAG_BATCH_START = 64;
export const LAG_WAIT_MS = 250;
export const BULK_WAIT_MS = 3000;

export class LaggingBatches {
  /** Per lagging projection: the events its next step waits for, and since when. */
  private readonly lagging = new Map<string, { goal: number; since: number }>();
  /** waitFor() calls in progress: while any runs, no step waits. */
  private waiters = 0;
  /** Bulk loads in progress (bulk()). */
  private bulkLoads = 0;

  constructor(private readonly batchSize: number) {}

  /** Runs `wait` (a waitFor() call) with no step waiting for a larger batch meanwhile. */
  async waiting<T>(wait: () => Promise<T>): Promise<T> {
    this.waiters += 1;
    try {
      return await wait();
    } finally {
      this.waiters -= 1;
    }
  }

  /** Whether a waitFor() call is in progress. */
  get anyoneWaiting(): boolean {
    return this.waiters > 0;
  }

  /** Whether a bulk load is in progress. */
  get bulkInProgress(): boolean {
    return this.bulkLoads > 0;
  }

  /** Marks a bulk load in progress until `end()` (idempotent). */
  bulk(): { end(): void } {
    this.bulkLoads += 1;
    let ended = false;
    return {
      end: () => {
        if (ended) return;
        ended = true;
        this.bulkLoads -= 1;
      },
    };
  }

  /**
   * True when a step of `name` from position `from` should wait: it lags, nobody waits for it, fewer events than
   * its goal are pending (the head read only then; none at all counts during a bulk load), and it has not waited
   * LAG_WAIT_MS (during a bulk load BULK_WAIT_MS) yet.
   */
  async shouldWait(name: string, from: number, events: Pick<EventStore, 'headPosition'>): Promise<boolean> {
    const lag = this.lagging.get(name);
    if (lag === undefined || this.waiters > 0) return false;
    const bulk = this.bulkLoads > 0;
    if (Date.now() - lag.since >= (bulk ? BULK_WAIT_MS : LAG_WAIT_MS)) return false;
    const pending = (await events.headPosition()) - from;
    return (bulk || pending > 0) && pending < lag.goal;
  }

  /** After a step of `name` that applied `applied` events: the next one waits for twice as many. */
  grew(name: string, applied: number): void {
    const lag = this.lagging.get(name);
    const goal =
      lag === undefined ? LAG_BATCH_START : Math.min(Math.max(lag.goal, applied) * 2, this.batchSize);
    this.lagging.set(name, { goal, since: Date.now() });
  }

  /** The projection caught up (a step found nothing) or was reset. */
  caughtUp(name: string): void {
    this.lagging.delete(name);
  }
}
