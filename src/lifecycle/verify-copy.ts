/** `audit:verify` on the event store of a data directory other than the configured one (a backup, a restore). */
import { join } from 'node:path';
import { StreamAuditor, type AuditReport } from '../audit/stream-auditor';
import { SqliteEventStore } from '../infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite } from '../infrastructure/sqlite/sqlite-connection';
import { EVENT_FILE, KEY_FILE } from './backup-manifest';
import { checkKeyCoverage, type KeyCoverage } from './key-coverage';

export interface CopyVerification {
  verified: boolean;
  streams: number;
  events: number;
  log_head: AuditReport['log_head'];
  /** Whether the copy's key file holds every data key its events need (key-coverage.ts). */
  keys: KeyCoverage;
  /** What broke, in audit:verify's words (null when verified). */
  failure: { reason: string; [key: string]: unknown } | null;
}

export async function verifyEventFile(dir: string): Promise<CopyVerification> {
  // Read only: verifying must not change the copy (no WAL switch, no schema step).
  const db = openSqlite({ path: join(dir, EVENT_FILE), readonly: true, mmapBytes: 0 });
  const store = new SqliteEventStore(db);
  try {
    const report = await new StreamAuditor(store).verify();
    const keys = await checkKeyCoverage(store, db, join(dir, KEY_FILE), report.erased);
    const failure = failureOf(report, keys);
    return {
      verified: failure === null,
      streams: report.streams,
      events: report.events,
      log_head: report.log_head,
      keys,
      failure,
    };
  } finally {
    await store.close();
    db.close();
  }
}

function failureOf(report: AuditReport, keys: KeyCoverage): CopyVerification['failure'] {
  if (report.first_break) return { ...report.first_break, kind: 'hash_chain_broken' };
  if (report.log_break) return { ...report.log_break, kind: 'log_chain_broken' };
  if (report.count_mismatch) return { ...report.count_mismatch, kind: 'event_count_mismatch' };
  if (keys.keys_missing_count > 0) {
    return {
      kind: 'data_keys_missing',
      reason:
        `${keys.keys_missing_count} data key(s) that events in the copy were sealed under are neither in ` +
        `${KEY_FILE} nor erased (an erasure while the backup ran also does this: run the backup again)`,
      key_ids: keys.keys_missing,
    };
  }
  return null;
}
