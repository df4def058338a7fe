/** `audit:verify` on the event store of a data directory other than the configured one (a backup, a restore). */
import { join } from 'node:path';
import { StreamAuditor, type AuditReport } from '../audit/stream-auditor';
import { SqliteEventStore } from '../infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite } from '../infrastructure/sqlite/sqlite-connection';
import { EVENT_FILE } from './backup-manifest';

export interface CopyVerification {
  verified: boolean;
  streams: number;
  events: number;
  log_head: AuditReport['log_head'];
  /** What broke, in audit:verify's words (null when verified). */
  failure: { reason: string; [key: string]: unknown } | null;
}

export async function verifyEventFile(dir: string): Promise<CopyVerification> {
  // Read only: verifying must not change the copy (no WAL switch, no schema step).
  const db = openSqlite({ path: join(dir, EVENT_FILE), readonly: true, mmapBytes: 0 });
  const store = new SqliteEventStore(db);
  try {
    const report = await new StreamAuditor(store).verify();
    return {
      verified: failureOf(report) === null,
      streams: report.streams,
      events: report.events,
      log_head: report.log_head,
      failure: failureOf(report),
    };
  } finally {
    await store.close();
    db.close();
  }
}

function failureOf(report: AuditReport): CopyVerification['failure'] {
  if (report.first_break) return { ...report.first_break, kind: 'hash_chain_broken' };
  if (report.log_break) return { ...report.log_break, kind: 'log_chain_broken' };
  if (report.count_mismatch) return { ...report.count_mismatch, kind: 'event_count_mismatch' };
  return null;
}
