import { AsyncLocalStorage } from 'node:async_hooks';
import type { SubscribeOptions, Subscription } from '../event-store.port';
import { toError } from '../new-event-batch';
import { isCairnEvent, requirePosition, toRecorded, type EsdbRecordedEvent } from './esdb-mapping';

/** Which subscription's on_event is running, so stop() called from inside a handler does not wait for itself. */
const insideHandler = new AsyncLocalStorage<EsdbSubscription>();

/** Structural view of the client's catch-up subscription to $all (a Readable of resolved events). */
export interface EsdbAllSubscription extends AsyncIterable<{ event?: EsdbRecordedEvent }> {
  unsubscribe(): Promise<void>;
  destroy(): void;
}

/**
 * Delivers an ESDB catch-up subscription to on_event strictly one at a time: async iteration of the client's
 * Readable pulls the next event only after the previous handler settled (the stream buffers meanwhile).
 */
export class EsdbSubscription implements Subscription {
  private stopped = false;
  private readonly done: Promise<void>;

  constructor(
    private readonly source: EsdbAllSubscription,
    private readonly options: SubscribeOptions,
    private readonly onEnd: (subscription: EsdbSubscription) => void,
  ) {
    this.done = this.run();
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      await this.release();
    }
    if (insideHandler.getStore() === this) return;
    await this.done;
  }

  private async run(): Promise<void> {
    let checkpoint = this.options.after_position;
    try {
      for await (const resolved of this.source) {
        if (this.stopped) break;
        const event = resolved.event;
        if (!event) continue;
        const position = requirePosition(event);
        // The server starts after the given position; this guard keeps "strictly after" whatever the version.
        if (position <= checkpoint) continue;
        checkpoint = position;
        if (!isCairnEvent(event)) continue;
        const recorded = toRecorded(event, position);
        await insideHandler.run(this, () => this.options.on_event(recorded));
        if (this.stopped) break;
      }
      if (!this.stopped) throw new Error('EventStoreDB subscription ended unexpectedly');
    } catch (error) {
      // Once stopped, the cancelled gRPC call may surface as an error: that is the stop, not a failure.
      if (!this.stopped) {
        this.stopped = true;
        try {
          this.options.on_error?.(toError(error));
        } catch {
          // an on_error that throws must not turn into an unhandled rejection
        }
      }
    } finally {
      await this.release();
      this.onEnd(this);
    }
  }

  private async release(): Promise<void> {
    try {
      await this.source.unsubscribe();
    } catch {
      // already cancelled or never connected
    }
    this.source.destroy();
  }
}
