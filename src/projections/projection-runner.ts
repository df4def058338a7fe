import { EventEmitter } from 'node:events';
import { ProjectionFailedError, StoredEventUnreadableError } from '../common/errors';
import type { EventStore, RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ReadStore } from '../infrastructure/read-store/read-store.port';
import type { SearchIndex } from '../infrastructure/search/search-index.port';
import { BufferedProjectionContext } from './buffered-projection-context';
import type { Projection } from './projection';
import { LaggingBatches } from './lagging-batches';
import { SearchVisibility } from './search-visibility';
import { ProjectionReads } from './projection-reads';
import { WakeableSleep } from './wakeable-sleep';
import type { ProjectionRunnerOptions, ProjectionStatus } from './projection-runner-types';

/** Failures in a row after which a waiting rebuild stops with the last one (with the backoff, ~20 s of retrying). */
const REBUILD_GIVES_UP_AFTER = 8;

export type { ProjectionRunnerOptions, ProjectionStatus } from './projection-runner-types';

const CHECKPOINT_DEFER_MS = 1000;
const CHECKPOINT_DEFER_EVENTS = 10_000;
/**
 * A step commits once its buffered writes (read-model documents and search documents) reach this many, even
 * before the end of its batch: what a step holds in memory is bounded by what it writes, not by how many events a
 * batch has (5,000 memory revisions of 8 chunks are 50,000 writes, and their documents and text held at once made a
 * 100k-chunk rebuild peak over 1 GB of heap). The rest of the batch is kept for the next step.
 */
const STEP_WRITE_LIMIT = 6000;

/**
 * What a step found: `idle`, nothing new; `more`, events left to read (a full batch, a remainder, a reset), so the
 * next step runs at once; `caught_up`, it applied everything up to the head of the log. After `caught_up` the loop
 * waits for the next poll (or a waiter's nudge) like an idle one: at the head a step runs after every append, and
 * stepping again at once after each made every projection step once per search's recall trace (events no
 * projection applies), ten steps per search.
 */
type StepOutcome = 'idle' | 'more' | 'caught_up';

/**
 * Runs every projection from its own checkpoint (never through an in-process event bus). One process at a time
 * runs a given projection, by lease; a batch's writes and its checkpoint move are one compare-and-set commit, so a
 * batch applied by a process that lost its lease (or raced a rebuild) is rejected and re-read, never doubled.
 */
export class ProjectionRunner {
  private readonly ttl: number;
  private readonly poll: number;
  private readonly standby: number;
  private readonly batch: number;
  private readonly sleeper = new WakeableSleep();
  private readonly progress = new EventEmitter();
  private readonly renewedAt = new Map<string, number>();
  /**
   * Projections a waiting rebuild gives up on: stopped at an event that cannot be decoded, or failed
   * REBUILD_GIVES_UP_AFTER times in a row (cleared by the next good step).
   */
  private readonly blocked = new Map<string, StoredEventUnreadableError | ProjectionFailedError>();
  /** How steps read their events (projection-reads.ts). */
  private readonly reads: ProjectionReads;
  /**
   * Checkpoint moves not written yet, by projection: batches with no event of the projection's types change
   * nothing but the checkpoint, so that write is deferred (each is a durable commit) until the projection next
   * writes, goes idle for CHECKPOINT_DEFER_MS, or is waited for. `stored` is the checkpoint the move starts from.
   */
  private readonly deferred = new Map<string, { stored: number; position: number; since: number }>();
  /** When search writes become searchable (search-visibility.ts). */
  private readonly visibility: SearchVisibility;
  /** Per projection: the events of its last batch a step left for the next one (see STEP_WRITE_LIMIT). */
  private readonly remainders = new Map<
    string,
    { after: number; events: RecordedEvent[]; through: number }
  >();
  /** Batches that grow while a projection lags (lagging-batches.ts). */
  private readonly lagging: LaggingBatches;
  /** Per projection: the step or reset this process is running (see exclusive()). */
  private readonly working = new Map<string, Promise<void>>();
  private loops: Array<Promise<void>> = [];
  private running = false;

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    private readonly searchIndex: SearchIndex,
    readonly projections: readonly Projection[],
    private readonly options: ProjectionRunnerOptions,
  ) {
    this.ttl = options.leaseTtlMs ?? 5000;
    this.poll = options.pollIntervalMs ?? 25;
    this.standby = options.standbyIntervalMs ?? 500;
    this.batch = options.batchSize ?? 5000;
    this.reads = new ProjectionReads(eventStore, this.batch);
    this.lagging = new LaggingBatches(this.batch);
    this.visibility = new SearchVisibility(searchIndex, this.lagging);
    this.progress.setMaxListeners(0);
    const names = new Set(projections.map((p) => p.name));
    if (names.size !== projections.length) throw new Error('projection names must be unique');
  }

  /** Creates every read-model collection and its indexes. */
  async prepare(): Promise<void> {
    for (const projection of this.projections) {
      for (const collection of projection.collections) {
        await this.readStore.ensureCollection(collection.name, collection.indexes, {
          packed: collection.packed,
          sparse: collection.sparse,
        });
      }
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = this.projections.map((projection) => this.loop(projection));
  }

  async stop(): Promise<void> {
    this.running = false;
    this.sleeper.wakeAll();
    await Promise.all(this.loops);
    this.loops = [];
    for (const projection of this.projections) {
      await this.flushDeferred(projection, 0).catch(() => undefined);
    }
    for (const projection of this.projections) {
      if (this.renewedAt.has(projection.name)) {
        await this.readStore.releaseLease(leaseName(projection), this.options.owner).catch(() => undefined);
      }
    }
    this.renewedAt.clear();
  }

  /** Wakes idle loops now (after a local append). */
  nudge(): void {
    this.sleeper.wakeAll();
  }

  /**
   * Marks a bulk load (writes that do not wait for their read models until the end) in progress until `end()`:
   * meanwhile the projections that batch while lagging apply it in larger steps (lagging-batches.ts).
   */
  bulkLoad(): { end(): void } {
    const bulk = this.lagging.bulk();
    return {
      end: () => {
        bulk.end();
        this.nudge();
      },
    };
  }

  /**
   * Resolves true once every named projection (default: all) has applied `position`; false after the timeout.
   * `failFast`: rejects with the error of a named projection this process's loop gave up on (this.blocked).
   */
  async waitFor(
    position: number,
    timeoutMs: number,
    names?: readonly string[],
    failFast = false,
  ): Promise<boolean> {
    const wanted = names ?? this.projections.map((p) => p.name);
    return this.lagging.waiting(async () => {
      if (!(await this.waitUntil(position, timeoutMs, wanted, failFast))) return false;
      // Writes of full batches (or a bulk load) applied before anyone waited may not be searchable yet.
      for (const name of wanted) {
        if (this.visibility.pending(name)) {
          await this.exclusive(this.find(name), () => this.visibility.refresh(name));
        }
      }
      return true;
    });
  }

  /** `failFast`: throws the error of a wanted projection this process's loop found blocked, instead of waiting. */
  private async waitUntil(
    position: number,
    timeoutMs: number,
    wanted: readonly string[],
    failFast = false,
  ): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    let delay = 2;
    for (;;) {
      let behind = false;
      for (const name of wanted) {
        const blocked = failFast ? this.blocked.get(name) : undefined;
        if (blocked) throw blocked;
        const checkpoint = await this.readStore.getCheckpoint(name);
        if (this.appliedPosition(name, checkpoint?.position ?? 0) < position) behind = true;
      }
      if (!behind) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      this.nudge();
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.progress.off('progress', done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(delay, left));
        this.progress.on('progress', done);
      });
      delay = Math.min(delay * 2, 25);
    }
  }

  /**
   * Drops the read models (and the search index for its owner) and waits until they are replayed to the head, one
   * projection after the other. (Resetting every selected projection first and replaying them together, sharing
   * their batches, lost early events of a rebuild on the MongoDB lane in 2 of 3 runs: not kept until that is
   * understood.) Each one's duration runs from its own reset to its reaching the head.
   */
  async rebuild(
    names: readonly string[] | undefined,
    timeoutMs: number,
  ): Promise<Array<{ name: string; position: number; duration_ms: number }>> {
    const selected = names ? names.map((name) => this.find(name)) : [...this.projections];
    const results: Array<{ name: string; position: number; duration_ms: number }> = [];
    for (const projection of selected) {
      const started = Date.now();
      // Never while this process's loop is inside a step of the projection: a read store may reset in several
      // steps (MongoDB: outside a transaction), which a step must not interleave with.
      await this.exclusive(projection, () => this.reset(projection));
      const head = await this.eventStore.headPosition();
      // A blocked projection stops the rebuild with its error (an undecodable row named) instead of waiting out the
      // timeout; only this process's loop can tell (a server holding the lease retries, and logs it).
      this.blocked.delete(projection.name);
      const reached = await this.visibility.duringRebuild(projection.name, () =>
        this.waitFor(head, timeoutMs, [projection.name], true),
      );
      if (!reached) {
        throw new Error(
          `rebuild of ${projection.name} did not reach position ${head} within ${timeoutMs} ms`,
        );
      }
      results.push({ name: projection.name, position: head, duration_ms: Date.now() - started });
    }
    return results;
  }

  async status(): Promise<ProjectionStatus[]> {
    const head = await this.eventStore.headPosition();
    return Promise.all(
      this.projections.map(async (projection) => {
        const [checkpoint, lease] = await Promise.all([
          this.readStore.getCheckpoint(projection.name),
          this.readStore.getLease(leaseName(projection)),
        ]);
        const position = this.appliedPosition(projection.name, checkpoint?.position ?? 0);
        const live = lease !== null && lease.expires_at > Date.now();
        return {
          name: projection.name,
          version: projection.version,
          position,
          checkpoint_version: checkpoint?.version ?? null,
          head,
          lag: Math.max(0, head - position),
          lease_owner: live ? lease.owner : null,
          lease_expires_at: live ? new Date(lease.expires_at).toISOString() : null,
        };
      }),
    );
  }

  find(name: string): Projection {
    const projection = this.projections.find((p) => p.name === name);
    if (!projection) throw new RangeError(`unknown projection "${name}"`);
    return projection;
  }

  private async loop(projection: Projection): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        if (!(await this.holdLease(projection))) {
          await this.sleeper.sleep(this.standby);
          continue;
        }
        const outcome = await this.exclusive(projection, () => this.step(projection));
        failures = 0;
        this.blocked.delete(projection.name);
        if (outcome !== 'more') {
          await this.exclusive(projection, () => this.flushDeferred(projection, CHECKPOINT_DEFER_MS));
          await this.sleeper.sleep(this.poll);
        } else {
          // A step may run without one wait for I/O (the embedded stores are synchronous): timers and requests go
          // between steps, so a long catch-up never holds the event loop.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      } catch (error) {
        failures += 1;
        // Retried like any failure (a repaired row, a restored file), but a rebuild waiting for it stops: at once
        // for a row no reader can decode, after REBUILD_GIVES_UP_AFTER failures in a row for anything else (an
        // edited event a projection cannot apply would otherwise keep it retrying until the rebuild's timeout).
        if (error instanceof StoredEventUnreadableError) this.blocked.set(projection.name, error);
        else if (failures >= REBUILD_GIVES_UP_AFTER)
          this.blocked.set(projection.name, new ProjectionFailedError(projection.name, failures, error));
        this.options.onError?.(projection.name, error);
        await this.sleeper.sleep(Math.min(100 * 2 ** failures, 5000));
      }
    }
  }

  private async holdLease(projection: Projection): Promise<boolean> {
    const renewed = this.renewedAt.get(projection.name);
    const now = Date.now();
    if (renewed !== undefined && now - renewed < this.ttl / 3) return true;
    const held = await this.readStore.acquireLease(leaseName(projection), this.options.owner, this.ttl);
    if (held) this.renewedAt.set(projection.name, now);
    else this.renewedAt.delete(projection.name);
    return held;
  }

  /** Applies one batch. */
  private async step(projection: Projection): Promise<StepOutcome> {
    const checkpoint = await this.readStore.getCheckpoint(projection.name);
    // A newer build owns this read model (rolling deploy): never downgrade it, stand by.
    if (checkpoint && checkpoint.version > projection.version) return 'idle';
    if (checkpoint && checkpoint.version < projection.version) {
      await this.reset(projection);
      return 'more';
    }
    const stored = checkpoint?.position ?? 0;
    const from = this.appliedPosition(projection.name, stored);
    if (from === stored) this.deferred.delete(projection.name);
    const remainder = this.remainders.get(projection.name);
    if (remainder?.after !== from && (await this.lagging.shouldWait(projection.name, from, this.eventStore)))
      return 'idle';
    this.remainders.delete(projection.name);
    // A remainder is never at the head: the step that left it did not apply its whole read.
    const read =
      remainder?.after === from
        ? { events: remainder.events, through: remainder.through, atHead: false }
        : await this.reads.read(projection, from);
    const batch = read.events;
    const { atHead } = read;
    if (batch.length === 0 && read.through <= from) {
      this.lagging.caughtUp(projection.name);
      await this.visibility.refresh(projection.name);
      return 'idle';
    }
    const context = new BufferedProjectionContext(
      this.readStore,
      new Set(projection.collections.map((c) => c.name)),
    );
    let applied = batch.length;
    for (let i = 0; i < batch.length; i++) {
      const event = batch[i];
      if (projection.eventTypes.has(event.type)) {
        context.at(event.position);
        await projection.apply(event, context);
      }
      if (context.writes >= STEP_WRITE_LIMIT && i < batch.length - 1) {
        applied = i + 1;
        break;
      }
    }
    const events = applied === batch.length ? batch : batch.slice(0, applied);
    if (projection.batchesGrowWhileLagging && applied > 0) this.lagging.grew(projection.name, applied);
    if (applied < batch.length) {
      this.remainders.set(projection.name, {
        after: events[events.length - 1].position,
        events: batch.slice(applied),
        through: read.through,
      });
    }
    // How far this step's checkpoint moves: through what the read looked at (events of other types included) once
    // every event it found is applied.
    const last = applied === batch.length ? read.through : events[events.length - 1].position;
    const wholeAtHead = atHead && applied === batch.length;
    const outcome: StepOutcome = wholeAtHead ? 'caught_up' : 'more';
    const ops = context.ops;
    const wrote = ops.length > 0 || context.searchWrites.length > 0;
    // The search index's writes land before the commit of the read models and the checkpoint (a crash between the
    // two replays the batch into both). The commit is called first all the same, its writes held until the search
    // index's are done: it prepares its documents meanwhile (a large batch's compression on another thread).
    let startSearch = (): void => undefined;
    const searchWritten = projection.usesSearchIndex
      ? new Promise<void>((resolve) => (startSearch = resolve)).then(() =>
          this.writeSearch(projection, context, last, wholeAtHead),
        )
      : undefined;
    // Its failure is the step's either way (awaited below, or through the commit); a commit that fails before it
    // waits for it must not leave it unhandled.
    searchWritten?.catch(() => undefined);
    if (!wrote && last - stored < CHECKPOINT_DEFER_EVENTS) {
      startSearch();
      await searchWritten;
      const since = this.deferred.get(projection.name)?.since ?? Date.now();
      this.deferred.set(projection.name, { stored, position: last, since });
      this.progress.emit('progress', projection.name, last);
      return outcome;
    }
    this.deferred.delete(projection.name);
    const committing = this.readStore.commit(
      projection.name,
      stored,
      { position: last, version: projection.version },
      ops,
      searchWritten === undefined ? {} : { after: searchWritten },
    );
    startSearch();
    const committed = await committing;
    if (committed) this.progress.emit('progress', projection.name, last);
    // A refused commit (another process moved the checkpoint) reads again at once.
    return committed ? outcome : 'more';
  }

  /** A step's search index writes, then a refresh of what searches see if they reached the head. */
  private async writeSearch(
    projection: Projection,
    context: BufferedProjectionContext,
    last: number,
    wholeAtHead: boolean,
  ): Promise<void> {
    await this.visibility.write(projection.name, context.searchWrites, !wholeAtHead);
    const atHeadNow = wholeAtHead || last >= (await this.eventStore.headPosition());
    if (atHeadNow && this.visibility.refreshesAtHead) await this.visibility.refresh(projection.name);
  }

  /** Runs `work` after any other exclusive work on the projection in this process has finished. */
  private async exclusive<T>(projection: Projection, work: () => Promise<T>): Promise<T> {
    const before = this.working.get(projection.name) ?? Promise.resolve();
    const running = before.then(work, work);
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    this.working.set(projection.name, settled);
    try {
      return await running;
    } finally {
      if (this.working.get(projection.name) === settled) this.working.delete(projection.name);
    }
  }

  /**
   * The position a projection's read models reflect: its stored checkpoint, or further when this process
   * deferred a checkpoint-only move from exactly that checkpoint (the events in between do not concern it).
   */
  private appliedPosition(name: string, stored: number): number {
    const deferred = this.deferred.get(name);
    return deferred !== undefined && deferred.stored === stored ? deferred.position : stored;
  }

  /** Writes a deferred checkpoint move older than `olderThanMs` (compare-and-set from where it started). */
  private async flushDeferred(projection: Projection, olderThanMs: number): Promise<void> {
    const deferred = this.deferred.get(projection.name);
    if (deferred === undefined || Date.now() - deferred.since < olderThanMs) return;
    this.deferred.delete(projection.name);
    await this.readStore.commit(
      projection.name,
      deferred.stored,
      { position: deferred.position, version: projection.version },
      [],
    );
  }

  /** Search index first: a batch landing between the two resets is replayed again from zero anyway. */
  private async reset(projection: Projection): Promise<void> {
    this.deferred.delete(projection.name);
    this.remainders.delete(projection.name);
    this.reads.reset(projection.name);
    this.lagging.caughtUp(projection.name);
    if (projection.usesSearchIndex) await this.searchIndex.reset();
    await this.readStore.reset(
      projection.name,
      projection.collections.map((c) => c.name),
    );
    this.nudge();
  }
}

function leaseName(projection: Projection): string {
  return `projection:${projection.name}`;
}
