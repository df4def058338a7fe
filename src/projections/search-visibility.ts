import type { SearchIndex, SearchWrite } from '../infrastructure/search/search-index.port';
import type { LaggingBatches } from './lagging-batches';

/**
 * When the projection runner's search writes become searchable. A step's writes are visible before its checkpoint
 * says so (read-your-writes) once the step reaches the head, and before any waitFor() of the projection returns;
 * until then, the full batches of a catch-up and the batches of a bulk load nobody waits for are written with
 * `defer_visibility` (the embedded index then stores each partition's postings once instead of once a batch;
 * Elasticsearch refreshes about once a second anyway) and made searchable by one refresh. A rebuild's full
 * batches are deferred too, though it waits for the head: nobody can read its read models' writes before it ends
 * (the index was just emptied), and its refresh comes at the end of its waitFor().
 */
export class SearchVisibility {
  /** Projections whose search writes may not be visible yet. */
  private readonly unrefreshed = new Set<string>();
  /** Rebuilds under way (ProjectionRunner.rebuild), by projection: two admin requests may overlap. */
  private readonly rebuilding = new Map<string, number>();

  constructor(
    private readonly index: SearchIndex,
    private readonly lagging: LaggingBatches,
  ) {}

  /** Writes one step's search writes; `full`: the step applied a full batch (not at the head). */
  async write(name: string, writes: SearchWrite[], full: boolean): Promise<void> {
    if (writes.length === 0) return;
    const defer_visibility =
      (full || this.lagging.bulkInProgress) && (!this.lagging.anyoneWaiting || this.rebuilding.has(name));
    await this.index.write(writes, { defer_visibility });
    this.unrefreshed.add(name);
  }

  /** Runs `rebuild` (a rebuild of projection `name`, which ends by waiting for it) with its full batches deferred. */
  async duringRebuild<T>(name: string, rebuild: () => Promise<T>): Promise<T> {
    this.rebuilding.set(name, (this.rebuilding.get(name) ?? 0) + 1);
    try {
      return await rebuild();
    } finally {
      const left = (this.rebuilding.get(name) ?? 1) - 1;
      if (left > 0) this.rebuilding.set(name, left);
      else this.rebuilding.delete(name);
    }
  }

  /** Whether a step that reached the head refreshes: always, but during a bulk load nobody waits for. */
  get refreshesAtHead(): boolean {
    return !this.lagging.bulkInProgress || this.lagging.anyoneWaiting;
  }

  /** Whether the projection has writes that may not be searchable yet. */
  pending(name: string): boolean {
    return this.unrefreshed.has(name);
  }

  /** Makes the projection's writes searchable (one refresh), if any may not be. */
  async refresh(name: string): Promise<void> {
    if (!this.unrefreshed.has(name)) return;
    await this.index.refresh();
    this.unrefreshed.delete(name);
  }
}
