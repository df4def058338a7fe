import { join } from 'node:path';
import type { CairnConfig } from '../config/config';
import type { EventStore } from './event-store/event-store.port';
import { SqliteEventStore } from './event-store/sqlite/sqlite-event-store';
import type { ReadStore } from './read-store/read-store.port';
import { SqliteReadStore } from './read-store/sqlite/sqlite-read-store';
import type { SearchIndex } from './search/search-index.port';
import { SqliteSearchIndex } from './search/sqlite/sqlite-search-index';
import { repackPostings } from './search/sqlite/search-schema';
import { MemoryChunkBodies } from '../projections/memory-chunk-bodies';
import { openSqlite, type SqliteDatabase } from './sqlite/sqlite-connection';
import { walFlusherFor } from './sqlite/wal-flusher';
import { EVENT_FILE, KEY_FILE } from './data-dir-files';
import type { DataKeyStore } from './erasure/data-key-store.port';
import { SealingEventStore } from './erasure/sealing-event-store';
import { SqliteDataKeyStore } from './erasure/sqlite-data-key-store';
import {
  openProductionEventStore,
  openProductionReadStore,
  openProductionSearchIndex,
} from './production-stores';

export interface Engines {
  event_store: 'sqlite' | 'eventstoredb';
  read_store: 'sqlite' | 'mongodb';
  search_index: 'sqlite-fts5' | 'elasticsearch';
}

export interface Stores {
  /** The event store the application uses: content-bearing fields sealed on append, opened on read. */
  eventStore: EventStore;
  /** The store underneath, as written (ciphertext): what audits verify. Absent: `eventStore` itself. */
  sealedEventStore?: EventStore;
  /** The data keys (crypto-shredding); absent when events are not sealed (stores a test builds by hand). */
  dataKeys?: DataKeyStore;
  readStore: ReadStore;
  searchIndex: SearchIndex;
  engines: Engines;
  /** The embedded SQLite file, when any port uses it. */
  sqlitePath: string | null;
  /**
   * For bulk writes (memory:ingest): this process's SQLite commits stop waiting for fsync (WAL, synchronous=NORMAL:
   * committed data still survives a process crash, only a power loss during the run can lose its latest commits,
   * and the idempotent run is simply repeated). `end()` restores full durability and syncs the WAL. No-op on
   * the production engines.
   */
  relaxDurability(): { end(): void };
  /**
   * After an erasure: copies every committed page of the embedded file into it and empties its WAL (a TRUNCATE
   * checkpoint), so bytes the read models deleted are gone from disk (deletes overwrite freed bytes: every
   * connection runs with `secure_delete`). False when another connection's open read kept part of the WAL.
   * Absent without an embedded file.
   */
  checkpoint?(): boolean;
  /**
   * After a bulk run (memory:ingest): repacks the embedded search index's postings table in a file of at most
   * 256 MiB (search-schema.ts repackPostings), then gives the embedded file's free pages back to the file
   * system (`PRAGMA incremental_vacuum`; files created before auto_vacuum was set have none to give). Returns the
   * pages released. Absent without an embedded file.
   */
  compact?(): number;
  close(): Promise<void>;
}

export const STORES = Symbol('STORES');

/** The key store's own file, beside the embedded file (backed up apart from it: docs/operations.md "Backups"). */
export function dataKeysFile(dataDir: string): string {
  return join(dataDir, KEY_FILE);
}

/** The embedded file every SQLite adapter shares. */
export function sqliteFile(dataDir: string): string {
  return join(dataDir, EVENT_FILE);
}

export interface OpenStoresOptions {
  /** The embedded file's memory map (sqlite-connection.ts `mmapBytes`); default: the connection's default. */
  sqliteMmapBytes?: number;
  /** The embedded file's page cache in KiB (sqlite-connection.ts `cacheKiB`); default: the connection's default. */
  sqliteCacheKiB?: number;
}

/** The page cache of a server process that shares the embedded file with other server processes. */
export const SHARED_FILE_CACHE_KIB = 2 * 1024;

/**
 * How a server process opens the embedded file. Alone (CAIRN_HTTP_WORKERS=1), with the connection's defaults: a
 * memory map and a large page cache keep hot pages one lookup away. With several workers, every search's recall
 * trace is a commit the other workers see, and SQLite answers each commit by another connection by discarding
 * this connection's view of the file: its page cache, and its memory map, which is unmapped and faulted in again
 * page by page. That costs the next read in proportion to the pages read since the last commit (measured: 70 µs
 * after a read of 2,000 rows, 1 µs without the foreign commit; docs/operations.md#what-it-costs-a-search-measured).
 * Without the map, and with a cache the size of a few searches' pages, the discard is cheap and the pages come
 * back through reads from the OS's file cache: in the search bench with two workers, 100k chunks, 13% more
 * requests per second and a 24% lower p99 (medians of 4 runs).
 */
export function serverStoreOptions(httpWorkers: number): OpenStoresOptions {
  return httpWorkers > 1 ? { sqliteMmapBytes: 0, sqliteCacheKiB: SHARED_FILE_CACHE_KIB } : {};
}

/** Opens each port on its production engine when its URL is set, else on the embedded SQLite file. */
export async function openStores(config: CairnConfig, options: OpenStoresOptions = {}): Promise<Stores> {
  const needsSqlite = !config.eventStoreUrl || !config.mongodbUrl || !config.elasticsearchUrl;
  const path = needsSqlite ? sqliteFile(config.dataDir) : null;
  // With the embedded event store, commits skip the disk wait and appends wait for a shared WAL sync instead.
  const groupCommit = path !== null && !config.eventStoreUrl;
  const db: SqliteDatabase | null = path
    ? openSqlite({
        path,
        synchronous: groupCommit ? 'NORMAL' : 'FULL',
        ...(options.sqliteMmapBytes === undefined ? {} : { mmapBytes: options.sqliteMmapBytes }),
        ...(options.sqliteCacheKiB === undefined ? {} : { cacheKiB: options.sqliteCacheKiB }),
      })
    : null;
  const wal = groupCommit && path !== null ? walFlusherFor(path) : null;
  const embedded = (): SqliteDatabase => {
    if (!db) throw new Error('embedded store requested without a SQLite file');
    return db;
  };
  const storedEvents = config.eventStoreUrl
    ? await openProductionEventStore(config.eventStoreUrl)
    : new SqliteEventStore(embedded(), {
        maxAppendBytes: config.maxAppendBytes,
        ...(wal ? { flusher: wal.flusher } : {}),
      });
  // With the embedded event store, a new subject's key binding rides on the append's own WAL sync.
  const dataKeys = new SqliteDataKeyStore(
    dataKeysFile(config.dataDir),
    groupCommit && db ? { bindings: db } : {},
  );
  const eventStore = new SealingEventStore(storedEvents, dataKeys);
  let embeddedReadStore: SqliteReadStore | null = null;
  let readStore: ReadStore;
  if (config.mongodbUrl) readStore = await openProductionReadStore(config.mongodbUrl);
  else readStore = embeddedReadStore = new SqliteReadStore(embedded());
  // With the embedded read model on the same file, chunk text is stored once: there (memory-chunk-bodies.ts).
  const searchIndex = config.elasticsearchUrl
    ? await openProductionSearchIndex(config.elasticsearchUrl)
    : new SqliteSearchIndex(embedded(), {
        postingCacheBytes: config.searchCacheMiB * 1024 * 1024,
        ...(embeddedReadStore ? { bodySource: new MemoryChunkBodies(embeddedReadStore) } : {}),
      });
  return {
    eventStore,
    sealedEventStore: storedEvents,
    dataKeys,
    readStore,
    searchIndex,
    sqlitePath: path,
    engines: {
      event_store: config.eventStoreUrl ? 'eventstoredb' : 'sqlite',
      read_store: config.mongodbUrl ? 'mongodb' : 'sqlite',
      search_index: config.elasticsearchUrl ? 'elasticsearch' : 'sqlite-fts5',
    },
    relaxDurability() {
      if (wal) return wal.flusher.relax();
      if (!db) return { end: () => undefined };
      db.pragma('synchronous = NORMAL');
      return {
        end: () => {
          db.pragma('synchronous = FULL');
          // Any checkpoint first syncs the WAL to disk: everything committed in the window is now durable.
          db.pragma('wal_checkpoint(PASSIVE)');
        },
      };
    },
    compact() {
      if (!db) return 0;
      if (!config.elasticsearchUrl) repackPostings(db);
      const free = (): number => Number(db.pragma('freelist_count', { simple: true }));
      const before = free();
      if (before > 0) db.pragma('incremental_vacuum');
      return before - free();
    },
    checkpoint() {
      if (!db) return true;
      const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
      return result.busy === 0;
    },
    async close() {
      await eventStore.close();
      await readStore.close();
      await searchIndex.close();
      wal?.close();
      db?.close();
    },
  };
}
