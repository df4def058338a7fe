/**
 * Recall-trace retention: search traces recorded before a cutoff keep their row, stream hash and log link, and lose
 * their query and results (a stub, pruned-traces.ts). Each batch is listed first in a RecallTracesPruned event of
 * the `trace-retention` stream (positions), then its rows' data are replaced, so `audit:verify` still verifies:
 * it takes a listed stub's stored hash for its content (docs/audit.md "Recall-trace retention").
 * Reply traces (`purpose: "reply"`) and traces recorded before traces had a purpose are kept.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import type { RecallTraceRecorded } from '../events/memory/recall.events';
import {
  SEALED_EVENT_STORE,
  type EventStore,
  type RecordedEvent,
} from '../infrastructure/event-store/event-store.port';
import {
  isPrunedTraceData,
  RETENTION_EVENT,
  RETENTION_STREAM,
  stubHash,
  type PrunedTraceStub,
  type TracesPrunedData,
} from '../infrastructure/event-store/pruned-traces';

/** Traces per batch: one retention event (about 8 bytes per position) and one short write transaction each. */
export const PRUNE_BATCH = 1000;

export interface PruneResult {
  recorded_before: string;
  pruned: number;
  retention_events: number;
}

@Injectable()
export class TraceRetention {
  /** Every trace at or before this position was handled by an earlier run of this process. */
  private scannedTo = 0;

  constructor(
    // The store as written (the sealing layer has no row-level access): trace rows are pruned where they lie.
    @Inject(SEALED_EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  /** False on stores that cannot prune (EventStoreDB): traces are kept there. */
  supported(): boolean {
    return this.store.readTraceStarts !== undefined && this.store.replaceTraceData !== undefined;
  }

  /** Prunes every search trace recorded before `recordedBefore`, in batches. */
  async prune(recordedBefore: Date, actor = 'system:trace-retention'): Promise<PruneResult> {
    const result: PruneResult = {
      recorded_before: recordedBefore.toISOString(),
      pruned: 0,
      retention_events: 0,
    };
    const { readTraceStarts, replaceTraceData } = this.store;
    if (!readTraceStarts || !replaceTraceData) return result;
    let after = this.scannedTo;
    for (;;) {
      const rows = await readTraceStarts.call(this.store, after, PRUNE_BATCH);
      const due: RecordedEvent[] = [];
      let newer = false;
      for (const row of rows) {
        // Traces are appended in time order: the first newer one ends the run.
        if (row.metadata.occurred_at >= result.recorded_before) {
          newer = true;
          break;
        }
        const data = row.data as RecallTraceRecorded['data'];
        if (data.purpose === 'search' && !isPrunedTraceData(data)) due.push(row);
        after = row.position;
      }
      if (due.length > 0) {
        const now = this.clock.nowIso();
        const stubs = due.map((row) => ({ row, stub: stubOf(row, now) }));
        const listed: TracesPrunedData = {
          recorded_before: result.recorded_before,
          positions: due.map((row) => row.position),
          // What each row will hash to with its stub: the audit holds every stub to it.
          stub_hashes: stubs.map(({ row, stub }) => stubHash(row, { ...stub })),
        };
        await this.store.append(
          RETENTION_STREAM,
          [
            {
              type: RETENTION_EVENT,
              data: { ...listed },
              metadata: {
                organization_id: null,
                correlation_id: randomUUID(),
                causation_id: null,
                actor,
                occurred_at: now,
                schema_version: 1,
              },
            },
          ],
          'any',
        );
        result.retention_events += 1;
        result.pruned += await replaceTraceData.call(
          this.store,
          stubs.map(({ row, stub }) => ({ position: row.position, data: { ...stub } })),
        );
      }
      this.scannedTo = after;
      if (newer || rows.length < PRUNE_BATCH) return result;
    }
  }
}

function stubOf(row: RecordedEvent, prunedAt: string): PrunedTraceStub {
  const data = row.data as RecallTraceRecorded['data'];
  return {
    trace_id: data.trace_id,
    organization_id: data.organization_id,
    connector_id: data.connector_id,
    purpose: 'search',
    pruned: true,
    pruned_at: prunedAt,
  };
}
