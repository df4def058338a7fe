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
 * How the projection runner's steps read events. More than a batch behind (catching up, rebuilding), a store that
 * can filter (EventStore.readAllOfTypes) hands over the projection's event types only: a projection of a few
 * organizations' events no longer reads every memory revision and recall trace (a 100k-chunk rebuild: the nine
 * projections besides memory took ~5 s, now ~0.1 s). Near the head, the projections share one read of every event
 * (shared-batches.ts), which projections woken together by one append read once.
 */
export class ProjectionReads {
  private readonly shared: SharedBatches;

  constructor(
    private readonly eventStore: EventStore,
    private readonly batchSize: number,
  ) {
    this.shared = new SharedBatches(eventStore, batchSize);
  }

  async read(projection: Projection, from: number): Promise<StepRead> {
    const { eventStore } = this;
    if (
      eventStore.readAllOfTypes !== undefined &&
      (await eventStore.headPosition()) - from > this.batchSize
    ) {
      const read = await eventStore.readAllOfTypes({
        after_position: from,
        max_count: this.batchSize,
        types: projection.eventTypes,
        deferred_data: true,
      });
      return { events: read.events, through: read.through, atHead: read.reached_head };
    }
    const events = await this.shared.read(from);
    const through = events.length > 0 ? events[events.length - 1].position : from;
    return { events, through, atHead: events.length < this.batchSize };
  }
}
