import { createHash } from 'node:crypto';
import { GENESIS_HASH } from './hash-chain';
import type { RecordedEvent } from './event-store.port';

/**
 * The log chain: a hash chain over every event in the global order, on top of each stream's own chain
 * (hash-chain.ts). Each event's `global_hash` is SHA-256 over the previous event's `global_hash` and its own `hash`,
 * so removing any event (a stream's tail, a whole stream, anything but the very end of the log) breaks the link of
 * the next one; removing the end of the log is caught against an anchor an auditor kept (`audit:anchor`).
 * Events written before the log chain existed have no `global_hash`: the chain starts at the first event that has
 * one (from GENESIS_HASH), and every event after it must have one.
 */
export function linkHash(globalPrevHash: string, hash: string): string {
  return createHash('sha256').update(`${globalPrevHash}:${hash}`).digest('hex');
}

export interface LogChainBreak {
  position: number;
  stream: string;
  revision: number;
  reason: 'log_link_broken' | 'log_hash_mismatch' | 'log_chain_missing';
}

/** The head of a verified log chain: what `audit:anchor` exports. */
export interface LogHead {
  position: number;
  global_hash: string;
  /** Events covered by the log chain (from its first event to the head). */
  events: number;
}

/**
 * Verifies the log chain one event at a time, in the global order. Each link is checked against the event's hash as
 * recomputed from its content by the caller (hash-chain.ts nextInChain), never the stored string alone, so the log
 * chain covers every event's content even when its stream is never read as a stream.
 */
export class LogChainVerifier {
  private previous: string | null = null;
  private head: LogHead | null = null;
  private broken: LogChainBreak | null = null;
  /** Events before the first one with a link (written before the log chain existed). */
  private unlinked = 0;

  /** Checks the next event (global order) whose content hashes to `hash`; false once broken. */
  add(event: RecordedEvent, hash: string): boolean {
    if (this.broken) return false;
    const { global_prev_hash: prev, global_hash: link } = event.metadata;
    const at = { position: event.position, stream: event.stream, revision: event.revision };
    if (link === undefined || prev === undefined) {
      if (this.previous !== null) this.broken = { ...at, reason: 'log_chain_missing' };
      else this.unlinked += 1;
      return this.broken === null;
    }
    if (prev !== (this.previous ?? GENESIS_HASH)) this.broken = { ...at, reason: 'log_link_broken' };
    else if (linkHash(prev, hash) !== link) this.broken = { ...at, reason: 'log_hash_mismatch' };
    else {
      this.previous = link;
      this.head = { position: event.position, global_hash: link, events: (this.head?.events ?? 0) + 1 };
    }
    return this.broken === null;
  }

  result(): { first_break: LogChainBreak | null; head: LogHead | null; unlinked: number } {
    return { first_break: this.broken, head: this.head, unlinked: this.unlinked };
  }
}
