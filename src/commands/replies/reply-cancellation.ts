import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';

/** How long shutdown waits for canceled runs to record their outcome. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Reply runs in flight in this process. On shutdown each is canceled (its pending model call is aborted) and
 * records `assistant_run_canceled`, a retryable outcome, before the stores close: the client's retry is processed
 * again by a live process instead of waiting for a lease to expire. (A killed process cannot do this; its request
 * is reclaimed when its lease expires.)
 */
@Injectable()
export class ReplyCancellation implements BeforeApplicationShutdown {
  private readonly logger = new Logger('replies');
  private readonly running = new Map<AbortController, Promise<unknown>>();
  private closing = false;

  /** Runs `work` with a signal that is aborted when the process shuts down. */
  track<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    if (this.closing) controller.abort(new Error('shutting down'));
    const done = work(controller.signal).finally(() => this.running.delete(controller));
    this.running.set(controller, done);
    return done;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    if (this.running.size === 0) return;
    this.logger.log(`canceling ${this.running.size} reply run(s) for shutdown`);
    for (const controller of this.running.keys()) controller.abort(new Error('shutting down'));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SHUTDOWN_GRACE_MS);
    });
    await Promise.race([Promise.allSettled([...this.running.values()]), grace]);
    clearTimeout(timer);
  }
}
