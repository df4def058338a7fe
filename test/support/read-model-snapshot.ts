import { unpackDocument } from '../../src/infrastructure/read-store/sqlite/packed-fields';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';

/**
 * Every read model of an embedded data directory's file, as sorted rows per table: the documents of every
 * collection (JSON text, packed fields put back and their stored bytes too) and every table of the search index. Leaves out what is not a read model: the events,
 * projection checkpoints, leases, id sequences, rate-limit windows and SQLite's own tables.
 */
const NOT_READ_MODELS = new Set([
  'events',
  'projection_checkpoints',
  'leases',
  'id_sequences',
  'window_counters',
  'sqlite_sequence',
  'sqlite_stat1',
  'sqlite_stat4',
]);

export function readModelSnapshot(file: string): Record<string, string[]> {
  const db = openSqlite({ path: file, readonly: true, mmapBytes: 0 });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
    const snapshot: Record<string, string[]> = {};
    for (const table of tables.filter((name) => !NOT_READ_MODELS.has(name))) {
      const rows =
        table === 'read_documents'
          ? (
              db
                .prepare('SELECT collection, id, json(doc) AS doc, packed FROM read_documents')
                .all() as Array<{
                collection: string;
                id: string;
                doc: string;
                packed: Buffer | null;
              }>
            ).map((row) => ({ ...row, doc: unpackDocument<unknown>(row.doc, row.packed) }))
          : db.prepare(`SELECT * FROM "${table}"`).all();
      snapshot[table] = rows
        .map((row) => JSON.stringify(row, (_key, value: unknown) => toJson(value)))
        .sort();
    }
    return snapshot;
  } finally {
    db.close();
  }
}

function toJson(value: unknown): unknown {
  return Buffer.isBuffer(value) ? value.toString('base64') : value;
}
