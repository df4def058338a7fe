import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { CURRENT_SCHEMA_VERSION, type DomainEvent } from '../../events/domain-event';
import {
  EVENT_STORE,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type RecordedEvent,
} from '../../infrastructure/event-store/event-store.port';
import { WrongExpectedVersionError } from '../../infrastructure/event-store/wrong-expected-version.error';
import { eventAppendDuration, eventAppends } from '../../observability/metrics';
import type { CommandContext } from './command-context';
import { Consistency } from './consistency';
import { fold, type Decider } from './decider';
import { StreamStateCache } from './stream-state-cache';

export interface Loaded<S> {
  state: S;
  /** The stream's last revision, or null when it does not exist. */
  revision: number | null;
  events: RecordedEvent[];
}

export interface Executed<S, E> {
  state: S;
  events: E[];
  /** Global position of the last appended event; null when the command changed nothing. */
  position: number | null;
}

export interface ExecuteOptions {
  /** The organization the stream belongs to (event metadata). */
  organizationId: number | null;
  /** Projections to wait for before returning (default: all); [] waits for none. */
  waitFor?: readonly string[];
  /** How many times to re-read and re-decide when another writer appended first (default 5). */
  maxAttempts?: number;
  /** When the append is acknowledged (EventStore AppendOptions; default `disk`). */
  durability?: AppendOptions['durability'];
}

/**
 * Decides one command, or several in order, each on the state the previous ones' events leave: their events are
 * appended together, atomically (one commit).
 */
function decideAll<C, S, E extends DomainEvent>(
  decider: Decider<C, S, E>,
  command: C | readonly C[],
  state: S,
): E[] {
  if (!Array.isArray(command)) return decider.decide(command as C, state);
  const events: E[] = [];
  let current = state;
  for (const each of command as readonly C[]) {
    const decided = decider.decide(each, current);
    current = decided.reduce(decider.evolve, current);
    events.push(...decided);
  }
  return events;
}

/**
 * The one way commands change state: read the stream, fold it, decide (pure), append with the revision read as
 * the expected revision. A concurrent writer makes the append fail; the command is then decided again on the
 * fresh state, so decisions are always made on the latest stream. Returns after the read models caught up.
 */
@Injectable()
export class StreamCommandExecutor {
  private readonly logger = new Logger('commands');
  private readonly states = new StreamStateCache();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly consistency: Consistency,
  ) {}

  async load<C, S, E extends DomainEvent>(stream: string, decider: Decider<C, S, E>): Promise<Loaded<S>> {
    const events = await this.store.readStream(stream);
    const state = fold(decider, events as unknown as E[]);
    return { state, revision: events.length ? events[events.length - 1].revision : null, events };
  }

  /**
   * The stream's latest state, like load(), but folded incrementally: only the events after the last state this
   * process folded are read. For streams read far more often than written (a connector's, on every request).
   */
  async loadLatest<C, S, E extends DomainEvent>(
    stream: string,
    decider: Decider<C, S, E>,
  ): Promise<{ state: S; revision: number | null }> {
    const cached = this.states.get<S>(stream, decider);
    const events = await this.store.readStream(
      stream,
      cached ? { from_revision: cached.revision + 1 } : undefined,
    );
    if (events.length === 0) {
      return cached ?? { state: decider.initialState(), revision: null };
    }
    const state = (events as unknown as E[]).reduce(decider.evolve, cached?.state ?? decider.initialState());
    const revision = events[events.length - 1].revision;
    this.states.set(stream, decider, state, revision);
    return { state, revision };
  }

  /** Decides without appending: what the command would record now (dry runs). */
  async preview<C, S, E extends DomainEvent>(
    stream: string,
    decider: Decider<C, S, E>,
    command: C,
  ): Promise<{ state: S; events: E[] }> {
    const loaded = await this.load(stream, decider);
    return { state: loaded.state, events: decider.decide(command, loaded.state) };
  }

  async execute<C, S, E extends DomainEvent>(
    stream: string,
    decider: Decider<C, S, E>,
    command: C,
    context: CommandContext,
    options: ExecuteOptions,
  ): Promise<Executed<S, E>> {
    return this.executeOn(stream, decider, await this.load(stream, decider), command, context, options);
  }

  /**
   * Decides on a stream the caller has just read (sparing a second read) and appends with the revision read;
   * when another writer appended first, re-reads and decides again (at most `maxAttempts` times in all).
   */
  executeOn<C, S, E extends DomainEvent>(
    stream: string,
    decider: Decider<C, S, E>,
    loaded: Loaded<S>,
    command: C | readonly C[],
    context: CommandContext,
    options: ExecuteOptions,
  ): Promise<Executed<S, E>> {
    return this.decideAndAppend(
      stream,
      decider,
      loaded,
      () => this.load(stream, decider),
      command,
      context,
      options,
    );
  }

  /**
   * Like execute(), for a stream named by an id this process has just reserved: decides on the initial state
   * without reading the stream. The append expects no stream, so should it exist after all, it is read and the
   * command decided again, as on any conflict.
   */
  async executeNew<C, S, E extends DomainEvent>(
    stream: string,
    decider: Decider<C, S, E>,
    command: C,
    context: CommandContext,
    options: ExecuteOptions,
  ): Promise<Executed<S, E>> {
    const empty: Loaded<S> = { state: decider.initialState(), revision: null, events: [] };
    return this.executeOn(stream, decider, empty, command, context, options);
  }

  /**
   * Like execute(), but reads with loadLatest(): only the events this process has not folded yet. For long, hot
   * streams appended by every request of an organization (its monthly reply quota). The decider's evolve must not
   * mutate the state it is given (the folded state is cached).
   */
  async executeLatest<C, S, E extends DomainEvent>(
    stream: string,
    decider: Decider<C, S, E>,
    command: C,
    context: CommandContext,
    options: ExecuteOptions,
  ): Promise<Executed<S, E>> {
    const read = () => this.loadLatest(stream, decider);
    return this.decideAndAppend(stream, decider, await read(), read, command, context, options);
  }

  /** The optimistic loop: decide on `current`, append at its revision; on a conflict re-read and decide again. */
  private async decideAndAppend<C, S, E extends DomainEvent>(
    stream: string,
    decider: Decider<C, S, E>,
    first: { state: S; revision: number | null },
    reread: () => Promise<{ state: S; revision: number | null }>,
    command: C | readonly C[],
    context: CommandContext,
    options: ExecuteOptions,
  ): Promise<Executed<S, E>> {
    const attempts = options.maxAttempts ?? 5;
    for (let attempt = 1, current = first; ; attempt++, current = await reread()) {
      const events = decideAll(decider, command, current.state);
      if (events.length === 0) return { state: current.state, events, position: null };
      const expected: ExpectedRevision = current.revision ?? 'no_stream';
      try {
        const position = await this.append(stream, events, expected, context, options.organizationId, {
          durability: options.durability,
        });
        await this.settle(position, options.waitFor);
        return { state: events.reduce(decider.evolve, current.state), events, position };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) || attempt >= attempts) throw error;
      }
    }
  }

  /** Appends already-decided events with an explicit expected revision (for streams that are claimed once). */
  async append(
    stream: string,
    events: DomainEvent[],
    expected: ExpectedRevision,
    context: CommandContext,
    organizationId: number | null,
    appendOptions: AppendOptions = {},
  ): Promise<number> {
    const occurred_at = this.clock.nowIso();
    const stopTimer = eventAppendDuration.startTimer();
    let result: AppendResult;
    try {
      result = await this.store.append(
        stream,
        events.map((event) => ({
          type: event.type,
          data: event.data,
          metadata: {
            organization_id: organizationId === null ? null : String(organizationId),
            correlation_id: context.correlation_id,
            causation_id: context.causation_id,
            actor: context.actor,
            occurred_at,
            schema_version: CURRENT_SCHEMA_VERSION,
          },
        })),
        expected,
        appendOptions,
      );
      eventAppends.inc({ outcome: 'ok' });
    } catch (error) {
      eventAppends.inc({ outcome: error instanceof WrongExpectedVersionError ? 'conflict' : 'error' });
      throw error;
    } finally {
      stopTimer();
    }
    return result.position;
  }

  /**
   * For a bulk load whose commands do not wait for their read models (memory:ingest): until `end()`, the read
   * models may apply its writes in larger batches (Consistency.bulkLoad). Call settle() after end().
   */
  bulkLoad(): { end(): void } {
    return this.consistency.bulkLoad();
  }

  /** Waits for the read models to reach `position`; a timeout is logged, the write itself stands. */
  async settle(position: number, projections?: readonly string[]): Promise<void> {
    if (projections && projections.length === 0) return;
    if (!(await this.consistency.waitFor(position, projections))) {
      this.logger.warn(`read models have not reached position ${position} yet; they will catch up`);
    }
  }
}
