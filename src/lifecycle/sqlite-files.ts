/**
 * The SQLite database files of a data directory, found by their header rather than by name, so a file added later
 * (a key store, another index) is backed up and restored without a change here.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Every SQLite database file starts with these 16 bytes (https://www.sqlite.org/fileformat.html). */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** SQLite's side files: part of their database, never a database of their own. */
const SIDE_FILE = /-(wal|shm|journal)$/;

export function isSqliteFile(path: string): boolean {
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(path, 'r');
  try {
    return readSync(fd, header, 0, header.length, 0) === header.length && header.equals(SQLITE_HEADER);
  } finally {
    closeSync(fd);
  }
}

/**
 * The database files under `dir` (any depth), as paths relative to it with `/` separators, sorted. Symbolic links
 * are not followed.
 */
export function findSqliteFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && !SIDE_FILE.test(entry.name) && isSqliteFile(path)) {
        found.push(relative(dir, path).split(sep).join('/'));
      }
    }
  };
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) walk(dir);
  return found.sort();
}
