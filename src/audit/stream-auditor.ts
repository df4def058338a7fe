import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
} from '../infrastructure/event-store/event-store.port';
import { verifyChain, type ChainBreak } from '../infrastructure/event-store/hash-chain';
import { LogChainVerifier, type LogChainBreak, type LogHead } from '../infrastructure/event-store/log-chain';

export interface AuditReport {
  streams: number;
  events: number;
  /** The first broken link found (streams in order of creation), or null when every chain holds. */
  first_break: ChainBreak | null;
  /** The first broken link of the log chain (a removed event or stream), or null. */
  log_break: LogChainBreak | null;
  /** The verified head of the log chain (null: the store keeps none, e.g. EventStoreDB). */
  log_head: LogHead | null;
  /** Against an anchor an auditor kept: null when none was given, else whether the log still holds it. */
  anchor: { position: number; global_hash: string; holds: boolean; reason: string | null } | null;
}

/** What `audit:anchor` exports and `audit:verify --anchor` checks. */
export type LogAnchor = { position: number; global_hash: string };

const PAGE = 1000;

/** What auditors use: a stream's full history, and a check of every stream's SHA-256 chain. */
@Injectable()
export class StreamAuditor {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async stream(name: string): Promise<{ stream: string; events: RecordedEvent[] }> {
    const events = await this.store.readStream(name);
    if (events.length === 0) throw new NotFoundError(`stream "${name}" does not exist`, 'stream_not_found');
    return { stream: name, events };
  }

  /**
   * Every stream's chain (an edited or reordered event, a gap), then the log chain over all events in the global
   * order (a removed tail event or stream), then the anchor when given (a truncated log).
   */
  async verify(onProgress?: (streams: number) => void, anchor?: LogAnchor): Promise<AuditReport> {
    let streams = 0;
    let events = 0;
    for await (const name of this.store.listStreams()) {
      const history = await this.store.readStream(name);
      streams += 1;
      events += history.length;
      const broken = verifyChain(history);
      if (broken)
        return { streams, events, first_break: broken, log_break: null, log_head: null, anchor: null };
      if (streams % 1000 === 0) onProgress?.(streams);
    }
    const log = await this.verifyLog(anchor);
    return { streams, events, first_break: null, ...log };
  }

  /** The verified head of the log chain, to keep elsewhere and verify against later. */
  async anchor(): Promise<LogHead | null> {
    const { log_break, log_head } = await this.verifyLog();
    if (log_break) throw new NotFoundError('the log chain is broken: run audit:verify', 'log_chain_broken');
    return log_head;
  }

  private async verifyLog(
    anchor?: LogAnchor,
  ): Promise<Pick<AuditReport, 'log_break' | 'log_head' | 'anchor'>> {
    const verifier = new LogChainVerifier();
    let after = 0;
    let anchored: { global_hash: string | undefined } | null = null;
    for (;;) {
      const page = await this.store.readAll({ after_position: after, max_count: PAGE });
      if (page.length === 0) break;
      if (anchor) {
        const hit = page.find((e) => e.position === anchor.position);
        if (hit) anchored = { global_hash: hit.metadata.global_hash };
      }
      if (!verifier.add(page)) break;
      after = page[page.length - 1].position;
    }
    const { first_break, head } = verifier.result();
    let checked: AuditReport['anchor'] = null;
    if (anchor) {
      const reason =
        anchored === null
          ? 'the anchored event is gone (the log was truncated or the event removed)'
          : anchored.global_hash !== anchor.global_hash
            ? 'the anchored event has another log hash (the log before it was rewritten)'
            : null;
      checked = { ...anchor, holds: reason === null, reason };
    }
    return { log_break: first_break, log_head: head, anchor: checked };
  }
}
