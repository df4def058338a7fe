import type {
  AppendOptions,
  AppendResult,
  EventData,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
  TypedRead,
  TypedReadOptions,
} from '../event-store/event-store.port';
import type { DataKeyStore } from './data-key-store.port';
import { isSealed, open, seal } from './sealed-value';
import { SEALED_FIELD, SEALING_RULES, type SealingRule } from './sealing-policy';
import { currentSealingScope } from './sealing-scope';

/**
 * The event store as the application sees it: appends seal the content-bearing fields of each event
 * (sealing-policy.ts) under their subjects' data keys before the store chains and writes them, so the hash
 * chains cover ciphertext; reads open them again, and fields whose key was destroyed read as erased. `sealed` is
 * the store underneath, which audits read (they verify what is stored). Events written before sealing existed
 * carry no `$sealed` field and read as written.
 */
export class SealingEventStore implements EventStore {
  readonly countEvents?: (upToPosition: number) => Promise<number>;
  readonly readAllOfTypes?: (options: TypedReadOptions) => Promise<TypedRead>;

  constructor(
    readonly sealed: EventStore,
    private readonly keys: DataKeyStore,
  ) {
    if (sealed.countEvents) this.countEvents = (upTo) => sealed.countEvents!(upTo);
    const readOfTypes = sealed.readAllOfTypes?.bind(sealed);
    if (readOfTypes) {
      this.readAllOfTypes = async (options) => {
        const read = await readOfTypes(options);
        return { ...read, events: this.opened(read.events, options.deferred_data) };
      };
    }
  }

  async append(
    stream: string,
    events: NewEvent[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult> {
    const rules = events.map((event) => SEALING_RULES[event.type]);
    if (rules.every((rule) => rule === undefined))
      return this.sealed.append(stream, events, expected, options);
    this.keys.refresh();
    const scope = currentSealingScope();
    const sealedEvents = events.map((event, index) => {
      const rule = rules[index];
      return rule ? { ...event, data: this.sealData(rule, event, scope) } : event;
    });
    const pending = this.keys.takePendingBindings();
    if (!pending) return this.sealed.append(stream, sealedEvents, expected, options);
    // New subjects' keys are bound in the append's own transaction: never a committed event under an unbound key.
    const result = await this.sealed.append(stream, sealedEvents, expected, {
      ...options,
      within: pending.write,
    });
    pending.committed();
    return result;
  }

  async readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.openAll(await this.sealed.readStream(stream, options));
  }

  async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.opened(await this.sealed.readAll(options), options?.deferred_data);
  }

  /** Events of a read of every stream, opened now or, with `deferred_data`, when each one's data is first read. */
  private opened(events: RecordedEvent[], deferred: boolean | undefined): RecordedEvent[] {
    return deferred ? this.openWhenRead(events) : this.openAll(events);
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return this.sealed.subscribeToAll({
      ...options,
      on_event: (event) => {
        if (!isSealed(event.data[SEALED_FIELD])) return options.on_event(event);
        this.keys.refresh();
        return options.on_event(this.openEvent(event));
      },
    });
  }

  headPosition(): Promise<number> {
    return this.sealed.headPosition();
  }

  listStreams(): AsyncIterable<string> {
    return this.sealed.listStreams();
  }

  ping(): Promise<void> {
    return this.sealed.ping();
  }

  async close(): Promise<void> {
    await this.sealed.close();
    this.keys.close();
  }

  private sealData(
    rule: SealingRule,
    event: NewEvent,
    scope: ReturnType<typeof currentSealingScope>,
  ): EventData {
    const organization =
      event.metadata.organization_id === null ? null : Number(event.metadata.organization_id);
    const names = rule.subjects(event.data, organization, scope);
    if (names.length === 0) return event.data;
    const clear: EventData = {};
    const hidden: EventData = {};
    for (const [field, value] of Object.entries(event.data)) {
      if (rule.fields.includes(field) && value !== undefined) hidden[field] = value;
      else clear[field] = value;
    }
    if (Object.keys(hidden).length === 0) return event.data;
    const keys = names.map((name) => this.keys.keyFor(name, organization));
    return { ...clear, [SEALED_FIELD]: seal(hidden, keys) };
  }

  private openAll(events: RecordedEvent[]): RecordedEvent[] {
    if (!events.some((event) => isSealed(event.data[SEALED_FIELD]))) return events;
    this.keys.refresh();
    return events.map((event) => (isSealed(event.data[SEALED_FIELD]) ? this.openEvent(event) : event));
  }

  /**
   * The events with their sealed fields opened when their data is first read, not before (`deferred_data`): a
   * projection that skips an event by its type never pays for decompressing, decrypting and parsing it. The keys are
   * refreshed (another process's erasure seen) once per read, at the first event opened.
   */
  private openWhenRead(events: RecordedEvent[]): RecordedEvent[] {
    let refreshed = false;
    const refreshOnce = (): void => {
      if (refreshed) return;
      refreshed = true;
      this.keys.refresh();
    };
    return events.map((event) => this.lazilyOpened(event, refreshOnce));
  }

  /** `event` (its data untouched) as an event whose `data` opens its sealed fields on first read. */
  private lazilyOpened(event: RecordedEvent, refresh: () => void): RecordedEvent {
    const opened = {
      event_id: event.event_id,
      stream: event.stream,
      revision: event.revision,
      position: event.position,
      type: event.type,
      metadata: event.metadata,
    } as RecordedEvent;
    let data: EventData | undefined;
    Object.defineProperty(opened, 'data', {
      enumerable: true,
      configurable: true,
      get: () => {
        if (data !== undefined) return data;
        const stored = event.data;
        if (!isSealed(stored[SEALED_FIELD])) return (data = stored);
        refresh();
        return (data = this.openData(event.type, stored));
      },
      set: (value: EventData) => (data = value),
    });
    return opened;
  }

  private openEvent(event: RecordedEvent): RecordedEvent {
    return { ...event, data: this.openData(event.type, event.data) };
  }

  private openData(type: string, data: EventData): EventData {
    const { [SEALED_FIELD]: sealedValue, ...clear } = data;
    let opened: unknown = null;
    try {
      opened = open(sealedValue as string, (id) => this.keys.keyById(id));
    } catch {
      // Ciphertext that does not authenticate was edited: it reads as unreadable, and audit:verify reports the
      // edit (the chain's hash covers the ciphertext).
      opened = null;
    }
    const hidden = opened === null ? (SEALING_RULES[type]?.erased ?? {}) : (opened as EventData);
    return { ...clear, ...hidden };
  }
}
