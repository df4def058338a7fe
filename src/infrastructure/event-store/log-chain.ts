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

/** Verifies the log chain page by page, in the global order. */
export class LogChainVerifier {
  private previous: string | null = null;
  private head: LogHead | null = null;
  private broken: LogChainBreak | null = null;

  /** Feeds the next events (global order); false once broken. */
  add(events: readonly RecordedEvent[]): boolean {
    for (const event of events) {
      if (this.broken) return false;
      const { global_prev_hash: prev, global_hash: hash } = event.metadata;
      const at = { position: event.position, stream: event.stream, revision: event.revision };
      if (hash === undefined || prev === undefined) {
        if (this.previous !== null) this.broken = { ...at, reason: 'log_chain_missing' };
        continue;
      }
      if (prev !== (this.previous ?? GENESIS_HASH)) this.broken = { ...at, reason: 'log_link_broken' };
      else if (linkHash(prev, event.metadata.hash) !== hash)
        this.broken = { ...at, reason: 'log_hash_mismatch' };
      else {
        this.previous = hash;
        this.head = { position: event.position, global_hash: hash, events: (this.head?.events ?? 0) + 1 };
      }
    }
    return this.broken === null;
  }

  result(): { first_break: LogChainBreak | null; head: LogHead | null } {
    return { first_break: this.broken, head: this.head };
  }
}
