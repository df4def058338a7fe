/** The embedded event store's table and prepared statements (sqlite-event-store.ts). */
import { LimitedStatements } from '../../sqlite/limited-statements';
import type { SqliteDatabase, SqliteStatement } from '../../sqlite/sqlite-connection';

/**
 * The table as a new file gets it. Each index is one more page in the WAL of every commit (16 KiB each: a durable
 * append syncs every page it dirtied), so it has only what a read or a guarantee needs:
 *
 * - `position` is the rowid, without AUTOINCREMENT: every commit also rewrote `sqlite_sequence`'s page for it. Both
 *   give max(position) + 1 as long as no row is deleted, and nothing deletes events (erasure destroys keys, trace
 *   pruning rewrites `data`); a row cut from the end by hand would see its position given again, and the log chain
 *   cannot tell that cut either way (docs/audit.md).
 * - `event_id` is not indexed: nothing looks an event up by its id, and the store generates ids (UUIDv7, 74 random
 *   bits) unless a caller gives one (no caller in Cairn does). A UNIQUE index refused an id given twice, at the
 *   cost of a page per append; KurrentDB does not refuse one either (the same id appended to the same stream soon
 *   after is taken as a retry and stored once).
 * - UNIQUE (stream, revision) is the backstop for a stream's revisions and the index every stream read uses.
 *
 * Files created before keep their table (AUTOINCREMENT, UNIQUE event_id): the store reads and writes both the same.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL,
  stream TEXT NOT NULL,
  revision INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL, -- JSON text, or a BLOB: a compressed payload (event-payload.ts)
  metadata TEXT NOT NULL, -- JSON text, or a BLOB: packed (event-metadata.ts)
  global_prev_hash BLOB, -- the log chain's link (log-chain.ts), 32 bytes each; NULL in rows written before
  global_hash BLOB,      -- these columns, whose metadata JSON holds the link as hex (or none before the chain)
  UNIQUE (stream, revision)
);
-- One entry per stream (its first event): listStreams without scanning every event.
CREATE INDEX IF NOT EXISTS events_stream_starts ON events (position) WHERE revision = 0;
`;

/**
 * Files created before the log chain had columns of its own: the columns are added (older rows keep the link in
 * their metadata JSON, see withLink in sqlite-event-store.ts).
 */
function addLogChainColumns(db: SqliteDatabase): void {
  const has = db.prepare("SELECT 1 FROM pragma_table_info('events') WHERE name = ?").pluck();
  const missing = (): string[] =>
    ['global_prev_hash', 'global_hash'].filter((column) => has.get(column) === undefined);
  if (missing().length === 0) return;
  // In the write lock, looked at again there, so two processes opening the same older file do not both add them.
  db.transaction(() => {
    for (const column of missing()) db.exec(`ALTER TABLE events ADD COLUMN ${column} BLOB`);
  }).immediate();
}

/** Listing streams reads this many stream starts per query. */
export const STREAMS_PAGE = 500;
export const COLUMNS =
  'position, event_id, stream, revision, type, data, metadata, global_prev_hash, global_hash';
export type Row = [
  position: number,
  event_id: string,
  stream: string,
  revision: number,
  type: string,
  /** JSON text, or a compressed payload (event-payload.ts). */
  data: string | Buffer,
  /** The metadata (JSON text, or packed: event-metadata.ts): without the log link when the columns below hold it. */
  metadata: string | Buffer,
  global_prev_hash: Buffer | null,
  global_hash: Buffer | null,
];

export interface Statements {
  last: SqliteStatement;
  globalHead: SqliteStatement;
  insert: SqliteStatement;
  forward: LimitedStatements;
  backward: LimitedStatements;
  all: LimitedStatements;
  ofTypes: LimitedStatements;
  head: SqliteStatement;
  count: SqliteStatement;
  streams: SqliteStatement;
  ping: SqliteStatement;
}

/** Creates the table (if missing) and prepares every statement the store runs. */
export function prepareEventStatements(db: SqliteDatabase): Statements {
  db.exec(SCHEMA);
  addLogChainColumns(db);
  const statements: Statements = {
    last: db.prepare('SELECT revision, metadata FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1'),
    // The log's last link: the column, or (a row written before the columns) the metadata's hex, read in JavaScript
    // as audit:verify reads it (SQL's JSON functions take the first of two duplicate keys, JSON.parse the last).
    globalHead: db.prepare('SELECT global_hash, metadata FROM events ORDER BY position DESC LIMIT 1'),
    insert: db.prepare(
      `INSERT INTO events (event_id, stream, revision, type, data, metadata, global_prev_hash, global_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    forward: new LimitedStatements(
      db,
      `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision ASC`,
      true,
    ),
    backward: new LimitedStatements(
      db,
      `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision <= ? ORDER BY revision DESC`,
      true,
    ),
    all: new LimitedStatements(
      db,
      `SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position ASC`,
      true,
    ),
    // A range of positions (the rowid: no other index is read), rows of other types passed over by their type alone:
    // their data and metadata are never copied out of the page.
    ofTypes: new LimitedStatements(
      db,
      `SELECT ${COLUMNS} FROM events WHERE position > ? AND position <= ?
         AND type IN (SELECT value FROM json_each(?)) ORDER BY position ASC`,
      true,
    ),
    head: db.prepare('SELECT COALESCE(MAX(position), 0) FROM events'),
    // Every row at or below the position, a position of 0 or less included (readAll starts after 0).
    count: db.prepare('SELECT COUNT(*) FROM events WHERE position <= ?'),
    streams: db.prepare(
      `SELECT stream, position FROM events WHERE revision = 0 AND position > ? ORDER BY position ASC LIMIT ${STREAMS_PAGE}`,
    ),
    ping: db.prepare('SELECT 1'),
  };
  for (const name of ['last', 'globalHead', 'streams'] as const) statements[name].raw(true);
  statements.head.pluck(true);
  statements.count.pluck(true);
  statements.ping.pluck(true);
  return statements;
}
