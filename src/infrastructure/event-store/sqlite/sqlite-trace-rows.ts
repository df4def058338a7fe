/** The embedded event store's statements for recall-trace retention (pruned-traces.ts). */
import type { EventData } from '../event-store.port';
import { PRUNABLE_TYPE } from '../pruned-traces';
import type { SqliteDatabase } from '../../sqlite/sqlite-connection';
import type { WriteLock } from '../../sqlite/write-lock';
import { encodePayload } from './event-payload';
import type { Row } from './sqlite-event-statements';

export interface TraceRows {
  /** First events of recall-trace streams after a position, in the global order (the revision-0 index). */
  starts(afterPosition: number, limit: number): Row[];
  /** Replaces those events' data with stubs in one write transaction; how many rows changed. */
  replace(stubs: Array<{ position: number; data: EventData }>): number;
}

export function prepareTraceRows(db: SqliteDatabase, lock: WriteLock): TraceRows {
  const starts = db
    .prepare(
      `SELECT position, event_id, stream, revision, type, data, metadata, global_prev_hash, global_hash
         FROM events WHERE revision = 0 AND type = '${PRUNABLE_TYPE}' AND position > ? ORDER BY position LIMIT ?`,
    )
    .raw(true);
  const update = db.prepare(
    `UPDATE events SET data = ? WHERE position = ? AND revision = 0 AND type = '${PRUNABLE_TYPE}'`,
  );
  const replaceAll = db.transaction((stubs: Array<{ position: number; data: EventData }>) =>
    stubs.reduce(
      (changed, stub) =>
        changed + update.run(encodePayload(JSON.stringify(stub.data)), stub.position).changes,
      0,
    ),
  );
  return {
    starts: (afterPosition, limit) => starts.all(afterPosition, limit) as Row[],
    replace: (stubs) => lock.run(() => replaceAll.immediate(stubs)),
  };
}
