/**
 * Folded stream states kept between reads, so a hot stream (a connector's, read on every request to
 * authenticate) is folded once and afterwards only its new events are read and applied. A state is stored with
 * the revision it was folded to; the caller reads the stream from the next revision on every use, so the state
 * handed out is always the stream's latest. States are never mutated (deciders' evolve is pure); least
 * recently used entries leave first.
 */
const MAX_STREAMS = 10_000;

interface Entry {
  decider: object;
  state: unknown;
  revision: number;
}

export class StreamStateCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity = MAX_STREAMS) {}

  /** The cached state of `stream` folded by `decider`, with its revision; undefined when not cached. */
  get<S>(stream: string, decider: object): { state: S; revision: number } | undefined {
    const entry = this.entries.get(stream);
    if (entry === undefined || entry.decider !== decider) return undefined;
    this.entries.delete(stream);
    this.entries.set(stream, entry);
    return { state: entry.state as S, revision: entry.revision };
  }

  set(stream: string, decider: object, state: unknown, revision: number): void {
    this.entries.delete(stream);
    this.entries.set(stream, { decider, state, revision });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}
