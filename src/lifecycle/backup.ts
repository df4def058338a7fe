/**
 * `cairn backup PATH`: an online copy of every SQLite file of the data directory, while servers keep writing.
 *
 * Each file is copied with `VACUUM INTO` from a connection of its own: one read transaction, so the copy is the
 * file as of one commit (WAL readers do not block writers, nor writers them), compacted. The files are copied one
 * after the other, each consistent in itself, the key file last (copyOrder). The copy's event log is then verified
 * as `audit:verify` verifies it, with every data key its events need (key-coverage.ts), and only then is the
 * manifest written.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ConflictError, ValidationFailedError } from '../common/errors';
import { openSqlite } from '../infrastructure/sqlite/sqlite-connection';
import {
  BACKUP_FORMAT,
  describeFile,
  EVENT_FILE,
  KEY_FILE,
  MANIFEST_FILE,
  type BackupManifest,
} from './backup-manifest';
import { findSqliteFiles } from './sqlite-files';
import { verifyEventFile } from './verify-copy';

export interface BackupResult {
  path: string;
  manifest: BackupManifest;
}

export async function backupDataDir(dataDir: string, target: string): Promise<BackupResult> {
  const source = resolve(dataDir);
  const destination = resolve(target);
  if (destination === source || !relative(source, destination).startsWith('..')) {
    throw new ValidationFailedError(
      'the backup path must be outside the data directory',
      [{ field: 'PATH', message: `inside ${source}` }],
      'usage_error',
    );
  }
  const existing = statSync(destination, { throwIfNoEntry: false });
  if (existing && (!existing.isDirectory() || readdirSync(destination).length > 0)) {
    throw new ConflictError('backup_target_not_empty', `${destination} exists and is not an empty directory`);
  }
  const files = findSqliteFiles(source);
  if (!files.includes(EVENT_FILE)) {
    throw new ConflictError(
      'no_embedded_store',
      `${source} holds no ${EVENT_FILE}: nothing to back up (with EVENTSTORE_URL the events are not embedded)`,
    );
  }
  mkdirSync(destination, { recursive: true });
  for (const file of copyOrder(files)) copyDatabase(join(source, file), join(destination, file));
  const verification = await verifyEventFile(destination);
  if (!verification.verified) {
    throw new ConflictError(
      'backup_verification_failed',
      `the copy in ${destination} does not verify (${verification.failure?.reason}); no manifest was written`,
      [{ message: String(verification.failure?.reason), ...verification.failure }],
    );
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    created_at: new Date().toISOString(),
    source_data_dir: source,
    files: await Promise.all(files.map((file) => describeFile(destination, file))),
    verified: { streams: verification.streams, events: verification.events, log_head: verification.log_head },
  };
  writeFileSync(join(destination, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return { path: destination, manifest };
}

/**
 * The event file first, the key file last. A key is on disk before any event sealed under it is committed, so a key
 * file copied after the events holds every key they need (but those erased in between); copied before, it would
 * lack the keys of subjects first written while the other files were copied, and their data would read as erased
 * after a restore. verify-copy.ts checks the result all the same (key-coverage.ts).
 */
export function copyOrder(files: string[]): string[] {
  const rank = (file: string): number => (file === EVENT_FILE ? 0 : file === KEY_FILE ? 2 : 1);
  return [...files].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** One database as of one read transaction, into a new file; process leases are not part of the copy. */
function copyDatabase(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  const db = openSqlite({ path: from, readonly: true, mmapBytes: 0, cacheKiB: 8 * 1024 });
  try {
    db.prepare('VACUUM INTO ?').run(to);
  } finally {
    db.close();
  }
  const copy = openSqlite({ path: to, mmapBytes: 0 });
  try {
    // The copy's processes do not exist: their leases (projection runners) would hold a restored store's
    // projections until they expire.
    const hasLeases = copy.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'leases'");
    if (hasLeases.get() !== undefined) copy.exec('DELETE FROM leases');
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}
