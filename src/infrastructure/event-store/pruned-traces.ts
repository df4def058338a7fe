/**
 * Recall-trace retention's rules, shared by the pruning (src/lifecycle/trace-retention.ts) and the audit
 * (src/audit/stream-auditor.ts). A pruned trace keeps its row, its stream hash and its log link; only its data is
 * replaced by a stub. Its hash can then no longer be recomputed from its content, so the audit accepts the stored
 * hash for such a row only when it is a recall trace's first event (a search trace) and a RecallTracesPruned
 * event of the retention stream, later in the log, lists its position. docs/audit.md "Recall-trace retention".
 */
import type { EventData } from './event-store.port';
import { hashEvent, type ChainableEvent } from './hash-chain';

export const PRUNABLE_TYPE = 'RecallTraceRecorded';
export const RETENTION_STREAM = 'trace-retention';
export const RETENTION_EVENT = 'RecallTracesPruned';
const TRACE_STREAM = /^recall-trace-\d+$/;

/** What a pruned trace's data becomes: who it belonged to, and that it was pruned (no query, no results). */
export interface PrunedTraceStub {
  trace_id: number;
  organization_id: number;
  connector_id: number;
  purpose: 'search';
  pruned: true;
  pruned_at: string;
}

/** The data of a RecallTracesPruned event. */
export interface TracesPrunedData {
  /** Traces recorded before this instant were pruned. */
  recorded_before: string;
  /** The log positions of the pruned traces (each a recall trace's first event, earlier in the log). */
  positions: number[];
  /**
   * For each position, the hash its row has with its stub as its data (stubHash()): what the audit holds the stub
   * to, since the row's stored hash is the pruned content's. Absent in listings written before it existed.
   */
  stub_hashes?: string[];
}

/** A listed position and the stub hash listed with it (null: a listing without stub hashes). */
export interface ListedStub {
  position: number;
  stub_hash: string | null;
}

interface EventShape {
  stream: string;
  revision: number;
  type: string;
  data: EventData;
}

/** A row whose data is a pruning stub where a search trace was: its stored hash stands for its content. */
export function isPrunedTrace(event: EventShape): boolean {
  return (
    event.type === PRUNABLE_TYPE &&
    event.revision === 0 &&
    TRACE_STREAM.test(event.stream) &&
    (event.data as { pruned?: unknown }).pruned === true
  );
}

/** Trace data that is a pruning stub (its query and results are gone). */
export function isPrunedTraceData(data: object): boolean {
  return (data as { pruned?: unknown }).pruned === true;
}

/** The positions a retention event covers with their listed stub hashes, or null when the event is not one. */
export function listedStubs(event: EventShape): ListedStub[] | null {
  if (event.stream !== RETENTION_STREAM || event.type !== RETENTION_EVENT) return null;
  const { positions, stub_hashes } = event.data as Partial<TracesPrunedData>;
  if (!Array.isArray(positions)) return [];
  const hashes: unknown[] | null = Array.isArray(stub_hashes) ? stub_hashes : null;
  const listed: ListedStub[] = [];
  positions.forEach((position, i) => {
    if (!Number.isSafeInteger(position)) return;
    // A listing with hashes holds every stub to one: a missing or malformed one ('') matches no stub.
    const hash = hashes?.[i];
    listed.push({ position, stub_hash: hashes === null ? null : typeof hash === 'string' ? hash : '' });
  });
  return listed;
}

/**
 * The hash of a trace's row with `stub` as its data (its event id, stream, revision, type, metadata and stream link
 * as they are): retention lists it, the audit recomputes it from the row it finds.
 */
export function stubHash(row: ChainableEvent, stub: EventData): string {
  const { event_id, stream, revision, type, metadata } = row;
  return hashEvent({ event_id, stream, revision, type, data: stub, metadata, prev_hash: metadata.prev_hash });
}
