import type {
  EventMetadata,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  Subscription,
} from '../../src/infrastructure/event-store/event-store.port';
import { WrongExpectedVersionError } from '../../src/infrastructure/event-store/wrong-expected-version.error';

export interface StoreFixture {
  store: EventStore;
  cleanup: () => Promise<void>;
}

export function metadata(overrides: Partial<EventMetadata> = {}): EventMetadata {
  return {
    organization_id: '42',
    correlation_id: 'corr-1',
    causation_id: null,
    actor: 'system:contract-test',
    occurred_at: '2024-05-06T07:08:09.123Z',
    schema_version: 1,
    ...overrides,
  };
}

export function newEvent(
  type: string,
  data: Record<string, unknown> = {},
  overrides: Partial<NewEvent> = {},
): NewEvent {
  return { type, data, metadata: metadata(), ...overrides };
}

/** `count` events of type `type` with data {n: 0..count-1}. */
export function newEvents(type: string, count: number): NewEvent[] {
  return Array.from({ length: count }, (_, n) => newEvent(type, { n }));
}

export async function expectWrongVersion(
  attempt: Promise<unknown>,
  stream: string,
  expected: ExpectedRevision,
  actual: number | null,
): Promise<void> {
  const error: unknown = await attempt.then(
    () => new Error('expected WrongExpectedVersionError, but the append succeeded'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WrongExpectedVersionError);
  expect(error).toMatchObject({ name: 'WrongExpectedVersionError', stream, expected, actual });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

export function expectStrictlyIncreasing(values: number[]): void {
  for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]);
}

/** Collects what a subscription delivers for the streams of one test (the server may be shared). */
export class Collector {
  readonly events: RecordedEvent[] = [];
  readonly errors: Error[] = [];
  subscription?: Subscription;

  constructor(private readonly prefix: string) {}

  subscribe(
    store: EventStore,
    afterPosition: number,
    onEvent?: (event: RecordedEvent) => Promise<void> | void,
  ): this {
    this.subscription = store.subscribeToAll({
      after_position: afterPosition,
      on_event: async (event) => {
        if (!event.stream.startsWith(this.prefix)) return;
        this.events.push(event);
        await onEvent?.(event);
      },
      on_error: (error) => this.errors.push(error),
    });
    return this;
  }

  ids(): string[] {
    return this.events.map((event) => event.event_id);
  }

  async waitForCount(count: number): Promise<void> {
    await waitFor(() => this.events.length >= count || this.errors.length > 0, `${count} events`);
    expect(this.errors).toEqual([]);
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
  }
}

/** A promise with its resolve exposed. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
