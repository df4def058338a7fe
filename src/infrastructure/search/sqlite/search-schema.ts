/**
 * The embedded search index's tables, in the SQLite file shared with the other embedded stores:
 *
 * - `search_index_documents`: every document plus tombstones (deleted = 1, content cleared, version kept).
 *   `org_token` is a generated column: the organization as a single FTS token (see organizationToken()).
 * - `search_index_live`: the live documents, the content of the FTS table, so FTS5's 'rebuild' and
 *   'integrity-check' see exactly what the triggers index.
 * - `search_index_fts`: external-content FTS5 over (title, body, org_token), kept in sync by triggers, which
 *   skip writes that change nothing indexed (an idempotent replay does not touch the FTS index).
 */
import type { SqliteDatabase } from '../../sqlite/sqlite-connection';

export const DOCS = 'search_index_documents';
export const FTS = 'search_index_fts';
const LIVE = 'search_index_live';

const ORG_TOKEN = `org_token TEXT GENERATED ALWAYS AS ('o' || hex(organization_id) || '0') VIRTUAL`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ${DOCS} (
  doc_rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  fields TEXT NOT NULL,
  version INTEGER NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0,
  ${ORG_TOKEN}
);
CREATE INDEX IF NOT EXISTS ${DOCS}_organization ON ${DOCS} (organization_id) WHERE deleted = 0;
CREATE VIEW IF NOT EXISTS ${LIVE} AS SELECT doc_rowid, title, body, org_token FROM ${DOCS} WHERE deleted = 0;
CREATE VIRTUAL TABLE IF NOT EXISTS ${FTS} USING fts5(
  title, body, org_token, content = '${LIVE}', content_rowid = 'doc_rowid',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS ${DOCS}_ai AFTER INSERT ON ${DOCS} WHEN new.deleted = 0 BEGIN
  INSERT INTO ${FTS} (rowid, title, body, org_token) VALUES (new.doc_rowid, new.title, new.body, new.org_token);
END;
CREATE TRIGGER IF NOT EXISTS ${DOCS}_ad AFTER DELETE ON ${DOCS} WHEN old.deleted = 0 BEGIN
  INSERT INTO ${FTS} (${FTS}, rowid, title, body, org_token)
    VALUES ('delete', old.doc_rowid, old.title, old.body, old.org_token);
END;
CREATE TRIGGER IF NOT EXISTS ${DOCS}_au AFTER UPDATE OF title, body, deleted, organization_id ON ${DOCS}
WHEN old.deleted != new.deleted OR old.title IS NOT new.title OR old.body IS NOT new.body
  OR old.organization_id IS NOT new.organization_id BEGIN
  INSERT INTO ${FTS} (${FTS}, rowid, title, body, org_token)
    SELECT 'delete', old.doc_rowid, old.title, old.body, old.org_token WHERE old.deleted = 0;
  INSERT INTO ${FTS} (rowid, title, body, org_token)
    SELECT new.doc_rowid, new.title, new.body, new.org_token WHERE new.deleted = 0;
END;
`;

/** Everything but the documents table: what is rebuilt when an older layout is found. */
const DROP_FTS = `
DROP TRIGGER IF EXISTS ${DOCS}_ai;
DROP TRIGGER IF EXISTS ${DOCS}_ad;
DROP TRIGGER IF EXISTS ${DOCS}_au;
DROP TABLE IF EXISTS ${FTS};
DROP VIEW IF EXISTS ${LIVE};
`;

function ftsDefinition(db: SqliteDatabase): string | undefined {
  const row = db
    .prepare<[string], { sql: string }>(`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?`)
    .get(FTS);
  return row?.sql;
}

/**
 * Creates the tables when missing (one IMMEDIATE transaction, safe with several processes). A file written by
 * an earlier layout (FTS content on the documents table, no organization token) keeps its documents: the
 * column is added and the FTS index is rebuilt from them.
 */
export function ensureSearchSchema(db: SqliteDatabase): void {
  db.transaction(() => {
    const fts = ftsDefinition(db);
    if (fts !== undefined && !(fts.includes('org_token') && fts.includes(LIVE))) {
      db.exec(DROP_FTS);
      const columns = db
        .prepare<[], { name: string }>(`SELECT name FROM pragma_table_xinfo('${DOCS}')`)
        .all();
      if (!columns.some((column) => column.name === 'org_token'))
        db.exec(`ALTER TABLE ${DOCS} ADD COLUMN ${ORG_TOKEN}`);
      db.exec(SCHEMA);
      db.exec(`INSERT INTO ${FTS} (${FTS}) VALUES ('rebuild')`);
      return;
    }
    db.exec(SCHEMA);
  }).immediate();
}

/** Drops and recreates every table: much faster than deleting row by row through the triggers, and forgets
 * tombstones too (a rebuild replays every version from the start). */
export function recreateSearchSchema(db: SqliteDatabase): void {
  db.transaction(() => {
    db.exec(DROP_FTS);
    db.exec(`DROP TABLE IF EXISTS ${DOCS}`);
    db.exec(SCHEMA);
  }).immediate();
}
