import type { EventStore, RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { Projection } from './projection';
import { SharedBatches } from './shared-batches';

/** What a projection step reads: events after its position, how far the read looked, whether at the head. */
export interface StepRead {
  events: RecordedEvent[];
  /** The step's checkpoint may move this far once every event read is applied (events of other types included). */
  through: number;
  /** The read reached the head of the log (fewer events than a batch were left). */
  atHead: boolean;
}

/**
 * How the projection runner's steps read events. A projection behind the head (catching up, rebuilding) asks a store
 * that can filter (EventStore.readAllOfTypes) for its event types only: a projection of a few organizations' events
 * reads no memory revision or recall trace (in a 100k-chunk rebuild the nine projections besides memory take ~0.1 s
 * together; reading every event, ~5 s). At the head, the projections share one read of every event (shared-batches.ts), which
 * projections woken together by one append read once. Which of the two is decided by the projection's last read,
 * never by a read of the head on every step (a step at the head runs after every search's recall trace).
 */
export class ProjectionReads {
  private readonly shared: SharedBatches;
  /** Projections whose last read reached the head of the log: their next read is the shared one. */
  private readonly atHead = new Set<string>();

  constructor(
    private readonly eventStore: EventStore,
    private readonly batchSize: number,
  ) {
    this.shared = new SharedBatches(eventStore, batchSize);
  }

  async read(projection: Projection, from: number): Promise<StepRead> {
    const { eventStore } = this;
    const { name } = projection;
    if (eventStore.readAllOfTypes !== undefined && !this.atHead.has(name)) {
      const read = await eventStore.readAllOfTypes({
        after_position: from,
        max_count: this.batchSize,
        types: projection.eventTypes,
        deferred_data: true,
      });
      if (read.reached_head) this.atHead.add(name);
      return { events: read.events, through: read.through, atHead: read.reached_head };
    }
    const events = await this.shared.read(from);
    const through = events.length > 0 ? events[events.length - 1].position : from;
    // Fewer events than a batch were read: at the head. A full batch: behind, and the next read is a typed one.
    const atHead = events.length < this.batchSize;
    if (!atHead) this.atHead.delete(name);
    return { events, through, atHead };
  }

  /** The projection was reset: its next read starts behind. */
  reset(name: string): void {
    this.atHead.delete(name);
  }
}
