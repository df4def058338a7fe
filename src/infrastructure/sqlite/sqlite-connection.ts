/**
 * The one file that imports better-sqlite3. The embedded event store, read store and search index share one
 * SQLite file (WAL), so several processes (server + CLI) can use the same data directory at once.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type SqliteDatabase = Database.Database;
export type SqliteStatement = Database.Statement;
export type SqliteTransaction<F extends Parameters<Database.Database['transaction']>[0]> =
  Database.Transaction<F>;

export interface SqliteOptions {
  /** File path, or ':memory:' (single connection only). */
  path: string;
  /** How long a writer waits for another process's write lock, in ms. */
  busyTimeoutMs?: number;
  readonly?: boolean;
  /**
   * FULL (default): every commit waits for the disk. NORMAL: commits survive a process crash at once and a
   * power loss once the WAL is synced — for a file whose event store acknowledges appends only after a WAL
   * flush (wal-flusher.ts), everything else in it being derived from the events or ordered before them.
   */
  synchronous?: 'FULL' | 'NORMAL';
  /**
   * The largest part of the file read through a memory map (default MMAP_BYTES). 0: none, every page through
   * SQLite's page cache. Mapped pages a process has read count in its resident set (as file pages): a one-shot
   * command that reads the whole file (a rebuild, an audit) would hold it all.
   */
  mmapBytes?: number;
  /** The connection's page cache, in KiB (default PAGE_CACHE_KIB; allocated as pages are read). */
  cacheKiB?: number;
  /** The page size of a file this call creates (default PAGE_SIZE); an existing file keeps its own. */
  pageSize?: number;
}

/**
 * Page size of new files, in bytes (files created before keep theirs: SQLite's default 4 KiB). Chosen on the store
 * bench against 4 and 8 KiB (docs/benchmarks.md): compressed event rows of 2–4 KB leave less of a page unused.
 */
export const PAGE_SIZE = 16384;

/** Page cache per connection, in KiB. */
export const PAGE_CACHE_KIB = 64 * 1024;
/** Largest part of the file read through mmap (address space, not memory: the OS pages it in and out). */
export const MMAP_BYTES = 4 * 1024 * 1024 * 1024;

export function openSqlite(options: SqliteOptions): SqliteDatabase {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path, { readonly: options.readonly ?? false });
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 10_000}`);
  if (!options.readonly) {
    // Both take effect only while the file is still empty (before journal_mode writes its header); a no-op after.
    // INCREMENTAL: pages a bulk run frees (search bodies kept until their postings are written) can be given back
    // to the file system at its end (Stores.compact); files created before keep auto_vacuum NONE.
    db.pragma(`page_size = ${options.pageSize ?? PAGE_SIZE}`);
    db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  }
  db.pragma('foreign_keys = ON');
  // Deleted rows and freed pages are overwritten with zeros: an erased subject's text leaves no bytes behind in
  // the file (docs/audit.md "Erasure"); the WAL is emptied by the erasure's checkpoint.
  db.pragma('secure_delete = ON');
  // SQLite's default page cache is 2 MB: a search would re-read most of its pages through system calls.
  // A larger cache (allocated as used) and reads through a memory map keep hot pages one lookup away.
  db.pragma(`cache_size = -${options.cacheKiB ?? PAGE_CACHE_KIB}`);
  db.pragma(`mmap_size = ${options.mmapBytes ?? MMAP_BYTES}`);
  return db;
}

/** True when the error is SQLite's "database is locked/busy" after the busy timeout ran out. */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_LOCKED';
}

/** True when the error is a UNIQUE/PRIMARY KEY constraint violation. */
export function isSqliteUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
