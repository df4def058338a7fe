/**
 * The data directory's size on disk after a run, with the WAL checkpointed into the database file first (the
 * figure a stopped server leaves behind), against the raw text it holds.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';
import { sqliteFile } from '../../src/infrastructure/stores';

/** Bytes of every file under `dir` (apparent sizes). */
export function directoryBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += directoryBytes(path);
    else if (entry.isFile()) bytes += statSync(path).size;
  }
  return bytes;
}

/** Checkpoints the WAL (TRUNCATE) of the data directory's SQLite file; no process may hold it open. */
export function checkpointWal(dataDir: string): void {
  const db = openSqlite({ path: sqliteFile(dataDir) });
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

export function dataDirectoryBytes(dataDir: string): number {
  checkpointWal(dataDir);
  return directoryBytes(dataDir);
}
