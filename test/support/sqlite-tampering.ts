/** Tampering an attacker with write access to the SQLite file does (test/integration/audit-tampering.spec.ts). */
import { GENESIS_HASH, hashEvent, stripChain } from '../../src/infrastructure/event-store/hash-chain';
import { linkHash } from '../../src/infrastructure/event-store/log-chain';
import { decodeMetadata, encodeMetadata } from '../../src/infrastructure/event-store/sqlite/event-metadata';
import { decodePayload, encodePayload } from '../../src/infrastructure/event-store/sqlite/event-payload';
import type { SqliteDatabase } from '../../src/infrastructure/sqlite/sqlite-connection';

/**
 * What an attacker who knows the algorithm does after an edit: every stream chain and every log link recomputed
 * in the global order (each stream's events chained in the order the log holds them), so that every stored hash
 * is the hash of its content.
 */
export function rechain(db: SqliteDatabase): void {
  type StoredRow = {
    position: number;
    event_id: string;
    stream: string;
    revision: number;
    type: string;
    data: string | Buffer;
    metadata: string | Buffer;
  };
  const rows = db
    .prepare(
      'SELECT position, event_id, stream, revision, type, data, metadata FROM events ORDER BY position',
    )
    .all() as StoredRow[];
  const heads = new Map<string, string>();
  const update = db.prepare(
    'UPDATE events SET metadata = ?, global_prev_hash = ?, global_hash = ? WHERE position = ?',
  );
  let globalPrev = GENESIS_HASH;
  for (const row of rows) {
    const metadata = stripChain(decodeMetadata(row.metadata) as never);
    const prev_hash = heads.get(row.stream) ?? GENESIS_HASH;
    const data = JSON.parse(decodePayload(row.data));
    const { event_id, stream, revision, type } = row;
    const hash = hashEvent({ event_id, stream, revision, type, data, metadata, prev_hash });
    heads.set(row.stream, hash);
    const global = linkHash(globalPrev, hash);
    update.run(
      JSON.stringify({ ...metadata, prev_hash, hash }),
      Buffer.from(globalPrev, 'hex'),
      Buffer.from(global, 'hex'),
      row.position,
    );
    globalPrev = global;
  }
}

/**
 * Changes fields of one event's stored metadata, as an attacker who knows the storage formats does: written back
 * packed where it can be (event-metadata.ts), or as JSON text (`as` 'json').
 */
export function editMetadata(
  db: SqliteDatabase,
  stream: string,
  revision: number,
  changes: Record<string, unknown>,
  as: 'packed' | 'json' = 'packed',
): void {
  const row = db
    .prepare('SELECT position, metadata FROM events WHERE stream = ? AND revision = ?')
    .get(stream, revision) as { position: number; metadata: string | Buffer };
  const edited = { ...decodeMetadata(row.metadata), ...changes };
  const json = JSON.stringify(edited);
  const stored = as === 'json' ? json : encodeMetadata(edited);
  if (as === 'packed' && !Buffer.isBuffer(stored)) throw new Error('the edited metadata cannot be packed');
  db.prepare('UPDATE events SET metadata = ? WHERE position = ?').run(stored, row.position);
}

/**
 * Changes fields of the stored data of the events matching `where` (an SQL condition over `events`, with `params`),
 * whichever way each is stored (event-payload.ts): decoded, edited, written back in the same form.
 */
export function editData(
  db: SqliteDatabase,
  where: string,
  params: unknown[],
  changes: Record<string, unknown>,
): void {
  const rows = db.prepare(`SELECT position, data FROM events WHERE ${where}`).all(...params) as Array<{
    position: number;
    data: string | Buffer;
  }>;
  if (rows.length === 0) throw new Error(`no event where ${where}`);
  const update = db.prepare('UPDATE events SET data = ? WHERE position = ?');
  for (const row of rows) {
    const edited = JSON.stringify({ ...(JSON.parse(decodePayload(row.data)) as object), ...changes });
    update.run(typeof row.data === 'string' ? edited : encodePayload(edited, 0), row.position);
  }
}

/** Recreates the table without UNIQUE (stream, revision), as an attacker may (rows and positions kept). */
export function dropUniqueRevisions(db: SqliteDatabase): void {
  db.exec(`CREATE TABLE events_copy (
    position INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT UNIQUE NOT NULL, stream TEXT NOT NULL,
    revision INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL,
    global_prev_hash BLOB, global_hash BLOB);
    INSERT INTO events_copy SELECT * FROM events;
    DROP TABLE events;
    ALTER TABLE events_copy RENAME TO events;`);
}

/**
 * Every row as the previous schema wrote it: the metadata as JSON text with the log link in it as hex, no link
 * columns.
 */
export function linksInMetadata(db: SqliteDatabase): void {
  const rows = db
    .prepare('SELECT position, metadata, global_prev_hash, global_hash FROM events')
    .all() as Array<{
    position: number;
    metadata: string | Buffer;
    global_prev_hash: Buffer;
    global_hash: Buffer;
  }>;
  const update = db.prepare(
    'UPDATE events SET metadata = ?, global_prev_hash = NULL, global_hash = NULL WHERE position = ?',
  );
  for (const row of rows) {
    const metadata = {
      ...decodeMetadata(row.metadata),
      global_prev_hash: row.global_prev_hash.toString('hex'),
      global_hash: row.global_hash.toString('hex'),
    };
    update.run(JSON.stringify(metadata), row.position);
  }
}

/**
 * Appends a forged `ChatbotResumed` event to the end of a chatbot's stream, chained to its last event (a stream hash
 * that holds), with no log link; `position` 0 puts it before the log's first event, null lets SQLite number it.
 */
export function forgeChatbotEvent(
  db: SqliteDatabase,
  at: { chatbotId: number; organizationId: number | string; eventId: string; position: 0 | null },
): void {
  const stream = `chatbot-${at.chatbotId}`;
  const last = db
    .prepare('SELECT revision, metadata FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1')
    .get(stream) as { revision: number; metadata: string | Buffer };
  const stored = decodeMetadata(last.metadata) as { hash: string };
  const prev_hash = stored.hash;
  const metadata = stripChain(stored as never);
  const event = { event_id: at.eventId, stream, revision: last.revision + 1, type: 'ChatbotResumed' };
  const data = { organization_id: at.organizationId, chatbot_id: at.chatbotId };
  const hash = hashEvent({ ...event, data, metadata, prev_hash });
  db.prepare(
    'INSERT INTO events (position, event_id, stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(
    at.position,
    event.event_id,
    event.stream,
    event.revision,
    event.type,
    JSON.stringify(data),
    JSON.stringify({ ...metadata, prev_hash, hash }),
  );
}
