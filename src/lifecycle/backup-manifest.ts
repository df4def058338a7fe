/** The manifest a backup directory carries (`cairn-backup.json`), written last: no manifest, no backup. */
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError, NotFoundError } from '../common/errors';
import type { CopyVerification } from './verify-copy';

/** EVENT_FILE is the one file every backup must hold; KEY_FILE is copied after the events it serves. */
import { EVENT_FILE, KEY_FILE } from '../infrastructure/data-dir-files';
export { EVENT_FILE, KEY_FILE };
export const MANIFEST_FILE = 'cairn-backup.json';
export const BACKUP_FORMAT = 'cairn-backup/1';

export interface BackupFile {
  /** Relative to the data directory, `/`-separated. */
  path: string;
  bytes: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  created_at: string;
  source_data_dir: string;
  files: BackupFile[];
  verified: Pick<CopyVerification, 'streams' | 'events' | 'log_head'>;
}

export async function describeFile(dir: string, path: string): Promise<BackupFile> {
  const full = join(dir, path);
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(full)) hash.update(chunk as Buffer);
  return { path, bytes: statSync(full).size, sha256: hash.digest('hex') };
}

export function readManifest(dir: string): BackupManifest {
  let text: string;
  try {
    text = readFileSync(join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    throw new NotFoundError(
      `${dir} holds no ${MANIFEST_FILE}: not a backup, or a backup that did not finish`,
      'backup_not_found',
    );
  }
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT || !Array.isArray(manifest.files)) {
    throw new ConflictError('backup_format_unknown', `${MANIFEST_FILE} is not ${BACKUP_FORMAT}`);
  }
  return manifest;
}

/** Every file the manifest names, byte for byte (size and SHA-256). */
export async function checkFiles(dir: string, manifest: BackupManifest): Promise<void> {
  const differ: { path: string; message: string }[] = [];
  for (const file of manifest.files) {
    if (!/^(?!\/)(?!.*(^|\/)\.\.(\/|$))[^\0]+$/.test(file.path)) {
      differ.push({ path: file.path, message: 'not a path inside the backup' });
      continue;
    }
    const actual = statSync(join(dir, file.path), { throwIfNoEntry: false })
      ? await describeFile(dir, file.path)
      : null;
    if (!actual) differ.push({ path: file.path, message: 'missing' });
    else if (actual.bytes !== file.bytes || actual.sha256 !== file.sha256) {
      differ.push({ path: file.path, message: 'content differs from the manifest' });
    }
  }
  if (!manifest.files.some((file) => file.path === EVENT_FILE)) {
    differ.push({ path: EVENT_FILE, message: 'the event store file is not in the manifest' });
  }
  if (differ.length > 0) {
    throw new ConflictError('backup_damaged', `the backup in ${dir} is not as it was written`, differ);
  }
}
