import type { SubjectErased } from '../events/erasure/erasure.events';
import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError, StoredEventUnreadableError } from '../common/errors';
import {
  SEALED_EVENT_STORE,
  type EventStore,
  type RecordedEvent,
} from '../infrastructure/event-store/event-store.port';
import { nextInChain, type ChainBreak, type StreamHead } from '../infrastructure/event-store/hash-chain';
import { isPrunedTrace, listedStubs, stubHash } from '../infrastructure/event-store/pruned-traces';
import { LogChainVerifier, type LogChainBreak, type LogHead } from '../infrastructure/event-store/log-chain';
import {
  compareHeads,
  headEntries,
  headsDigest,
  type StreamHeadEntry,
  type StreamHeadsBreak,
} from './stream-heads';

export interface AuditReport {
  /** Streams found in the log (every stream with any event). */
  streams: number;
  /** Events verified in the log pass (every event up to the head read at the start). */
  events: number;
  /** Of those, the first ones, written before the log chain existed (verified by their stream chains only). */
  events_before_log_chain: number;
  /** The first broken link of a stream's chain (in the global order), or null when every chain holds. */
  first_break: ChainBreak | null;
  /** The first broken link of the log chain (a removed event or stream), or null. */
  log_break: LogChainBreak | null;
  /** Events the log pass did not see, or a stream that reads otherwise than the log holds it, or null. */
  count_mismatch: CountMismatch | null;
  /** The verified head of the log chain (null: the store keeps none, e.g. EventStoreDB). */
  log_head: LogHead | null;
  /** Against an anchor an auditor kept: null when none was given, else whether the log still holds it. */
  anchor: AnchorCheck | null;
  /**
   * Every SubjectErased event in the log verified (docs/audit.md "Erasure"): what was erased, by whom, why, when —
   * its sealed data is unreadable, its ciphertext still verifies.
   */
  erased: ErasedSubject[];
}

export interface ErasedSubject {
  subject: string;
  /** Erased with it (a memory item's creating proposal); [] for older events. */
  linked_subjects: string[];
  organization_id: number;
  erased_by: string;
  reason: string | null;
  erased_at: string;
  position: number;
}

export interface AnchorCheck {
  position: number;
  global_hash: string | null;
  holds: boolean;
  reason: string | null;
  /** The first stream whose head at the anchor's position differs from the anchored one (stream-heads.ts). */
  stream_break: StreamHeadsBreak | null;
}

/**
 * The log pass and another view of the same events disagree: the store holds rows the global order does not reach
 * (a position moved to 0 or below), or a stream read by name is not the stream the log holds.
 */
export type CountMismatch =
  | { reason: 'events_outside_the_log'; log_events: number; stored_events: number }
  | {
      reason: 'stream_read_differs_from_log';
      stream: string;
      log_events: number;
      stream_events: number;
      /** The first revision whose event differs (null: only the count does). */
      revision: number | null;
    };

/**
 * What `audit:anchor` exports and `audit:verify --anchor` checks: the log chain's head (`global_hash`; null on a
 * store without a log chain, as EventStoreDB) and every stream's head up to `position` (or only their digest).
 */
export type LogAnchor = {
  position: number;
  global_hash: string | null;
  stream_heads?: StreamHeadEntry[];
  stream_heads_sha256?: string;
};

/** What `audit:anchor` prints. */
export interface AnchorExport {
  position: number;
  global_hash: string | null;
  /** Events the log chain covers (0 without one). */
  events: number;
  streams: number;
  stream_heads_sha256: string;
  stream_heads: StreamHeadEntry[];
}

const PAGE = 1000;

/** What auditors use: a stream's full history, and a check of every stream's SHA-256 chain. */
@Injectable()
export class StreamAuditor {
  constructor(@Inject(SEALED_EVENT_STORE) private readonly store: EventStore) {}

  async stream(name: string): Promise<{ stream: string; events: RecordedEvent[] }> {
    const events = await this.store.readStream(name);
    if (events.length === 0) throw new NotFoundError(`stream "${name}" does not exist`, 'stream_not_found');
    return { stream: name, events };
  }

  /**
   * Everything up to the head as read at the start (later appends are left for the next run):
   * 1. the log pass, every event in the global order: its stream's next revision, linked to the stream's previous
   *    hash, its hash recomputed from its content, and the log chain's link over that hash (an edited, renumbered,
   *    moved or removed event, a removed stream);
   * 2. the store's own count against the log pass's (a row moved out of the global order);
   * 3. the stream pass, every stream the log holds read by name as aggregates read it: the same events;
   * 4. the anchor, when given (a truncated or rewritten log).
   */
  async verify(onProgress?: (message: string) => void, anchor?: LogAnchor): Promise<AuditReport> {
    const head = await this.store.headPosition();
    const log = await this.logPass(head, anchor, onProgress);
    const report: AuditReport = {
      streams: log.streams.size,
      events: log.events,
      events_before_log_chain: log.unlinked,
      first_break: log.first_break,
      log_break: log.log_break,
      count_mismatch: null,
      log_head: log.head,
      anchor: null,
      erased: log.erased,
    };
    if (log.first_break || log.log_break) return report;
    report.count_mismatch =
      (await this.countPass(head, log.events)) ?? (await this.streamPass(head, log.streams, onProgress));
    if (report.count_mismatch) return report;
    report.anchor = anchor ? checkAnchor(anchor, log.anchored, log.atAnchor) : null;
    return report;
  }

  /**
   * The verified heads to keep elsewhere and verify against later: the log chain's head (when the store keeps one)
   * and every stream's last revision, hash and position; null for an empty store.
   */
  async anchor(): Promise<AnchorExport | null> {
    const head = await this.store.headPosition();
    const log = await this.logPass(head, undefined);
    const broken =
      log.first_break ??
      log.log_break ??
      (await this.countPass(head, log.events)) ??
      (await this.streamPass(head, log.streams));
    if (broken) throw new NotFoundError('the store does not verify: run audit:verify', 'log_chain_broken');
    if (log.events === 0) return null;
    const stream_heads = headEntries(log.streams);
    return {
      position: log.last_position,
      global_hash: log.head?.global_hash ?? null,
      events: log.head?.events ?? 0,
      streams: stream_heads.length,
      stream_heads_sha256: headsDigest(stream_heads),
      stream_heads,
    };
  }

  private async logPass(head: number, anchor: LogAnchor | undefined, onProgress?: (message: string) => void) {
    const streams = new Map<string, StreamHead>();
    /** Each stream's head as of the anchor's position. */
    const atAnchor = new Map<string, StreamHead>();
    let last_position = 0;
    const verifier = new LogChainVerifier();
    let events = 0;
    let first_break: ChainBreak | null = null;
    let anchored: { global_hash: string | undefined } | null = null;
    let after = 0;
    /**
     * Pruned recall traces no retention event has listed yet (one must, later in the log, with the hash their row
     * has with their stub as it is), and whether a listing named one with another stub hash.
     */
    const unlisted = new Map<number, { at: ChainBreak; stub_hash: string; mismatched: boolean }>();
    const erased: ErasedSubject[] = [];
    pages: for (;;) {
      const page = await this.store.readAll({ after_position: after, max_count: PAGE });
      for (const event of page) {
        if (event.position > head) break pages;
        events += 1;
        let pruned = false;
        let next: StreamHead | ChainBreak;
        try {
          pruned = isPrunedTrace(event);
          next = nextInChain(streams.get(event.stream) ?? null, event, event.position, pruned);
        } catch (error) {
          if (!(error instanceof StoredEventUnreadableError)) throw error;
          next = unreadableBreak(error);
        }
        if ('reason' in next) {
          first_break = { ...next, position: event.position };
          break pages;
        }
        if (pruned) {
          const { stream, revision, event_id, position } = event;
          const at: ChainBreak = { stream, revision, event_id, position, reason: 'pruned_without_record' };
          unlisted.set(position, { at, stub_hash: stubHash(event, event.data), mismatched: false });
        }
        for (const listed of listedStubs(event) ?? []) {
          const stub = unlisted.get(listed.position);
          if (stub === undefined) continue;
          // A listing before stub hashes existed lists positions only; a later listing (a run after one that
          // stopped before writing its stubs) may hold the stub as written.
          if (listed.stub_hash === null || listed.stub_hash === stub.stub_hash)
            unlisted.delete(listed.position);
          else stub.mismatched = true;
        }
        streams.set(event.stream, next);
        if (anchor && event.position <= anchor.position) atAnchor.set(event.stream, next);
        last_position = event.position;
        if (event.type === 'SubjectErased') erased.push(erasedSubject(event));
        if (anchor && event.position === anchor.position)
          anchored = { global_hash: event.metadata.global_hash };
        if (!verifier.add(event, next.hash)) break pages;
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1].position;
      if (events % (PAGE * 10) === 0) onProgress?.(`verified ${events} events`);
    }
    const stray = unlisted.values().next().value;
    if (first_break === null && stray !== undefined)
      first_break = stray.mismatched ? { ...stray.at, reason: 'pruned_stub_edited' } : stray.at;
    const { first_break: log_break, head: logHead, unlinked } = verifier.result();
    return {
      streams,
      events,
      unlinked,
      first_break,
      log_break,
      head: logHead,
      anchored,
      atAnchor,
      last_position,
      erased,
    };
  }

  /** Rows the store holds up to `head` against the events the log pass saw (stores that can count apart). */
  private async countPass(head: number, logEvents: number): Promise<CountMismatch | null> {
    if (!this.store.countEvents) return null;
    const stored = await this.store.countEvents(head);
    return stored === logEvents
      ? null
      : { reason: 'events_outside_the_log', log_events: logEvents, stored_events: stored };
  }

  /**
   * Each stream the log holds, read by name: exactly the events the log pass verified for it (revisions 0..n-1,
   * each in the global order, the last one the log's last). The log pass saw every row up to the head (the count
   * pass) and checked each stream's revisions, so the same count means the same events.
   */
  private async streamPass(
    head: number,
    streams: ReadonlyMap<string, StreamHead>,
    onProgress?: (message: string) => void,
  ): Promise<CountMismatch | null> {
    let done = 0;
    for (const [stream, seen] of streams) {
      const events = (await this.store.readStream(stream)).filter((event) => event.position <= head);
      const differs = events.findIndex((event, index) => event.revision !== index || event.position <= 0);
      const last = events[events.length - 1];
      if (
        differs >= 0 ||
        events.length !== seen.events ||
        last.position !== seen.position ||
        last.metadata.hash !== seen.hash
      ) {
        return {
          reason: 'stream_read_differs_from_log',
          stream,
          log_events: seen.events,
          stream_events: events.length,
          revision: differs >= 0 ? events[differs].revision : null,
        };
      }
      done += 1;
      if (done % 1000 === 0) onProgress?.(`read ${done} streams`);
    }
    return null;
  }
}

/**
 * The anchor against the log: its log chain head still held (stores with a log chain), and every stream's head at
 * its position the one anchored. A stream break is reported first: it names the stream.
 */
function checkAnchor(
  anchor: LogAnchor,
  anchored: { global_hash: string | undefined } | null,
  atAnchor: ReadonlyMap<string, StreamHead>,
): AnchorCheck {
  const stream_break = compareHeads(anchor, atAnchor);
  const logReason =
    anchor.global_hash === null
      ? null
      : anchored === null
        ? 'the anchored event is gone (the log was truncated or the event removed)'
        : anchored.global_hash !== anchor.global_hash
          ? 'the anchored event has another log hash (the log before it was rewritten)'
          : null;
  const reason = stream_break ? `${stream_break.reason}: ${streamBreakText(stream_break)}` : logReason;
  return {
    position: anchor.position,
    global_hash: anchor.global_hash,
    holds: reason === null,
    reason,
    stream_break,
  };
}

function streamBreakText(b: StreamHeadsBreak): string {
  switch (b.reason) {
    case 'stream_missing':
      return `stream ${b.stream} held revision ${b.anchored_revision} at the anchor and is gone`;
    case 'stream_truncated':
      return `stream ${b.stream} held revision ${b.anchored_revision} at the anchor, now ${b.log_revision}`;
    case 'stream_rewritten':
      return `stream ${b.stream}'s head at the anchor has another hash or position (rewritten or re-created)`;
    case 'stream_added':
      return `stream ${b.stream} appears before the anchor's position but was not anchored`;
    case 'stream_heads_differ':
      return "the streams' heads at the anchor differ from the anchored digest";
  }
}

function erasedSubject(event: RecordedEvent): ErasedSubject {
  const data = event.data as unknown as SubjectErased['data'];
  return {
    subject: data.subject,
    linked_subjects: data.linked_subjects ?? [],
    organization_id: data.organization_id,
    erased_by: data.erased_by,
    reason: data.reason,
    erased_at: data.erased_at,
    position: event.position,
  };
}

/** A row no reader can decode, as the break it is: its content cannot be hashed, so its chain cannot hold. */
function unreadableBreak(error: StoredEventUnreadableError): ChainBreak {
  const { stream, revision, event_id, position } = error.place;
  return {
    stream,
    revision,
    event_id,
    position,
    reason: 'unreadable',
    unreadable: { part: error.part, cause: error.reason },
  };
}
