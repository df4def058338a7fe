import { AsyncLocalStorage } from 'node:async_hooks';
import type { RecordedEvent, SubscribeOptions, Subscription } from '../event-store.port';
import { toError } from '../new-event-batch';

/** Which subscription's on_event is running, so stop() called from inside a handler does not wait for itself. */
const insideHandler = new AsyncLocalStorage<PollingSubscription>();

const PAGE_SIZE = 500;

/**
 * A catch-up subscription over a table ordered by position: delivers pages after the checkpoint, then polls.
 * SQLite has one writer at a time and positions are assigned in commit order, so a reader never sees a higher
 * position before a lower one commits: reading `position > last delivered` never skips an event.
 */
export class PollingSubscription implements Subscription {
  private stopped = false;
  /** Set by wake() so an append made during a page's delivery is read without waiting a poll interval. */
  private woken = false;
  private interruptSleep: (() => void) | null = null;
  private readonly done: Promise<void>;

  constructor(
    private readonly readAfter: (position: number, limit: number) => RecordedEvent[],
    private readonly options: SubscribeOptions,
    private readonly pollIntervalMs: number,
    private readonly onEnd: (subscription: PollingSubscription) => void,
  ) {
    this.done = this.run();
  }

  /** Called after an append through the same store instance: read now instead of at the next poll. */
  wake(): void {
    this.woken = true;
    this.interruptSleep?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.interruptSleep?.();
    // stop() awaited from inside this subscription's own on_event would otherwise wait for itself forever.
    if (insideHandler.getStore() === this) return;
    await this.done;
  }

  private async run(): Promise<void> {
    // Start on a later tick: an error reading the first page must reach on_error after subscribeToAll returned.
    await Promise.resolve();
    let position = this.options.after_position;
    try {
      while (!this.stopped) {
        this.woken = false;
        const page = this.readAfter(position, PAGE_SIZE);
        for (const event of page) {
          if (this.stopped) return;
          await insideHandler.run(this, () => this.options.on_event(event));
          position = event.position;
        }
        if (page.length < PAGE_SIZE && !this.woken && !this.stopped) await this.sleep();
      }
    } catch (error) {
      this.stopped = true;
      try {
        this.options.on_error?.(toError(error));
      } catch {
        // an on_error that throws must not turn into an unhandled rejection
      }
    } finally {
      this.onEnd(this);
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.interruptSleep = null;
        resolve();
      };
      const timer = setTimeout(finish, this.pollIntervalMs);
      this.interruptSleep = finish;
    });
  }
}
