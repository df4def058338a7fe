/**
 * What this connection's own appends left at the heads of the log: the last revision and hash of each stream it
 * appended to recently, and the log chain's last link. An append reads both inside the write lock (the stream's to
 * check the expected revision and continue its chain, the log's to link after it); while no other connection has
 * committed since this one's last append, they are still what its appends left, so neither is read again.
 *
 * Whether another connection committed is what SQLite's `PRAGMA data_version` tells a connection: its value changes
 * when any other connection (of this process or another) commits, never for the connection's own commits. It is
 * asked inside the write lock, where no other commit can land until this one's, so a value equal to the one seen at
 * this connection's last append means the events table holds nothing this connection did not write. This
 * connection's other writes (read models, search index, recall-trace pruning) change neither a stream's last
 * revision and hash nor the log's last link.
 */

export interface StreamHead {
  revision: number;
  /** The stream chain's hash of its last event, hex. */
  hash: string;
}

/** Streams remembered (least recently appended to forgotten first). */
const STREAMS_KEPT = 4096;

export class AppendHeads {
  private readonly streams = new Map<string, StreamHead>();
  /** The log chain's last link (hex), as this connection's last append left it. */
  private log: string | null = null;
  /** data_version at this connection's last append (null: none, or forgotten). */
  private version: number | null = null;

  constructor(
    /** PRAGMA data_version of the connection that appends. */
    private readonly dataVersion: () => number,
    private readonly kept = STREAMS_KEPT,
  ) {}

  /**
   * Inside the write lock, before an append reads the heads: forgets everything when another connection has
   * committed since this connection's last append.
   */
  checkInLock(): void {
    const version = this.dataVersion();
    if (version === this.version) return;
    this.streams.clear();
    this.log = null;
    this.version = version;
  }

  /** `stream`'s head as this connection left it (after checkInLock(): exact; before: a guess). */
  streamHead(stream: string): StreamHead | undefined {
    return this.streams.get(stream);
  }

  /** The log's last link as this connection left it (after checkInLock(): exact), or null: read it. */
  logHead(): string | null {
    return this.log;
  }

  /** After an append's commit: the heads it left. */
  appended(stream: string, head: StreamHead, logHead: string): void {
    this.streams.delete(stream);
    if (this.streams.size >= this.kept) this.streams.delete(this.streams.keys().next().value as string);
    this.streams.set(stream, head);
    this.log = logHead;
  }

  /** Forgets everything (an append failed: what it left is not known). */
  forget(): void {
    this.streams.clear();
    this.log = null;
    this.version = null;
  }
}
