/**
 * `cairn restore PATH [--force]`: a backup's files into the configured data directory, after checking them (the
 * manifest's sizes and SHA-256, then `audit:verify` on the backup's event log). Never while a process uses the
 * data directory (a projection lease is held); into a non-empty directory only with --force, which replaces its
 * SQLite files and drops the saved vector index (derived, rebuilt from the read models).
 */
import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConflictError } from '../common/errors';
import { openSqlite } from '../infrastructure/sqlite/sqlite-connection';
import { checkFiles, EVENT_FILE, readManifest, type BackupManifest } from './backup-manifest';
import { findSqliteFiles } from './sqlite-files';
import { verifyEventFile } from './verify-copy';

/** The saved vector index (queries/memory/vector-candidates.ts vectorIndexDir): derived from the read models. */
const VECTOR_INDEX_DIR = 'vector-index';

export interface RestoreResult {
  data_dir: string;
  files: string[];
  events: number;
  log_head: BackupManifest['verified']['log_head'];
  replaced: string[];
}

export async function restoreDataDir(
  backup: string,
  dataDir: string,
  options: { force: boolean; now?: number },
): Promise<RestoreResult> {
  const from = resolve(backup);
  const to = resolve(dataDir);
  const manifest = readManifest(from);
  await checkFiles(from, manifest);
  const verification = await verifyEventFile(from);
  if (!verification.verified) {
    throw new ConflictError(
      'backup_verification_failed',
      `the backup in ${from} does not verify (${verification.failure?.reason})`,
      [{ message: String(verification.failure?.reason), ...verification.failure }],
    );
  }
  const holder = activeLease(to, options.now ?? Date.now());
  if (holder) {
    throw new ConflictError(
      'data_directory_in_use',
      `a process (${holder.owner}) is using ${to} (lease ${holder.name} until ` +
        `${new Date(holder.expires_at).toISOString()}): stop every server and command on it first`,
    );
  }
  const present = statSync(to, { throwIfNoEntry: false }) ? readdirSync(to) : [];
  if (present.length > 0 && !options.force) {
    throw new ConflictError(
      'data_directory_not_empty',
      `${to} is not empty (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', …' : ''}): ` +
        'restore into an empty directory, or pass --force to replace its databases',
    );
  }
  const replaced = findSqliteFiles(to);
  for (const file of replaced) {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(join(to, file + suffix), { force: true });
  }
  rmSync(join(to, VECTOR_INDEX_DIR), { recursive: true, force: true });
  for (const file of manifest.files) {
    const target = join(to, file.path);
    mkdirSync(dirname(target), { recursive: true });
    // Aside, then renamed: a restore cut short leaves no half-written database under the real name.
    copyFileSync(join(from, file.path), `${target}.restoring`);
    renameSync(`${target}.restoring`, target);
  }
  return {
    data_dir: to,
    files: manifest.files.map((file) => file.path),
    events: verification.events,
    log_head: verification.log_head,
    replaced,
  };
}

interface LeaseRow {
  name: string;
  owner: string;
  expires_at: number;
}

/** A lease some process still holds on the data directory's store (a running server renews its own). */
function activeLease(dataDir: string, now: number): LeaseRow | null {
  const path = join(dataDir, EVENT_FILE);
  if (!statSync(path, { throwIfNoEntry: false })) return null;
  const db = openSqlite({ path, readonly: true, mmapBytes: 0 });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'leases'").get();
    if (table === undefined) return null;
    const row = db
      .prepare(
        'SELECT name, owner, expires_at FROM leases WHERE expires_at > ? ORDER BY expires_at DESC LIMIT 1',
      )
      .get(now) as LeaseRow | undefined;
    return row ?? null;
  } finally {
    db.close();
  }
}
