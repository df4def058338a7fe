/**
 * The embedded search index's tables, in the SQLite file shared with the other embedded stores:
 *
 * - `search_index_documents`: every document plus tombstones (deleted = 1, content cleared, version kept). A live
 *   document has its organization's key and a document number, unique within the organization (its postings
 *   name it), its title and body lengths in tokens, and its row hash (generation-hash.ts).
 * - `search_index_organizations`: per organization its key, live document count, total title and body tokens
 *   (BM25's N and average length), the next document number, `posted_doc_no` (every document numbered below it
 *   has its postings and lengths stored; those from it on were deferred, document-writer.ts) and its
 *   `generation`: a digest of its live rows (generation-hash.ts) that every write changing any of them changes;
 *   in-memory row caches are valid for one generation, posting caches for one generation and `posted_doc_no`
 *   (posting-cache.ts, row-cache.ts).
 * - `search_index_postings`: the posting lists, one compressed BLOB per (organization, term, partition), see
 *   postings.ts; `search_index_lengths`: the documents' title and body lengths, one BLOB per (organization,
 *   partition), see document-lengths.ts. Both are WITHOUT ROWID tables on that key, so their rows do not depend
 *   on the order they were first written in.
 * - `fields` holds the filter fields encoded (field-codec.ts), decoded once per cached row; `collapse_key` the
 *   value of the collapse field (NULL: none, or a tombstone). `body` holds the body packed (raw DEFLATE,
 *   body-codec.ts; a tombstone's is empty), or, with a body source (body-source.ts), nothing: the source (the
 *   read model) holds the text. `search_index_deferred_bodies` then keeps the bodies of documents whose postings
 *   are deferred (the read model may not have them yet), by (org_key, doc_no), until their postings are stored:
 *   a table of its own, so its rows come and go whole instead of leaving half-empty pages among the documents.
 * - `search_index_meta`: the layout and analyzer versions the postings were built with.
 *
 * Every value is derived from the writes, in their order (document rowids and numbers are handed out in the
 * order documents first appear), never from the time or chance: replaying the same events writes the same rows.
 *
 * - `search_index_documents_collapse`: with a collapse field (SearchQuery.collapse), an index of the live documents
 *   by organization and `collapse_key`, for a collapsed hit's members; the field is recorded in the meta table.
 *
 * Any other layout or analyzer version (1: an FTS5 table kept by triggers, no meta table; 2 and 3: random
 * generations, postings rowids in the order written; 4: postings by hash bucket, 14 bytes each; 5: no
 * `posted_doc_no`; 6: 6-byte slots without collapse values; 7: bodies as text, not packed by body-codec.ts; 8:
 * fields as JSONB, collapsed by an expression on them; 9: 14-byte slots without expiry; 10: every row keeps its
 * body, even with a body source; 11: postings keyed by term before partition group, postings.ts), or
 * another collapse field, keeps its documents: the
 * postings are dropped and rebuilt from the documents table when the index is opened (one IMMEDIATE transaction,
 * so one process does it; about as long as indexing the documents anew), the documents numbered in rowid order.
 * Nothing has to be replayed from events.
 */
import type { SqliteDatabase } from '../../sqlite/sqlite-connection';
import { emptyGeneration } from './generation-hash';
import { encodeFields, type Fields } from './field-codec';

/** The SQL function that re-encodes an earlier layout's fields (migrateDocuments). */
const ENCODE_FIELDS_FN = 'cairn_encode_search_fields';

export const DOCS = 'search_index_documents';
export const ORGS = 'search_index_organizations';
export const POSTINGS = 'search_index_postings';
export const LENGTHS = 'search_index_lengths';
export const DEFERRED_BODIES = 'search_index_deferred_bodies';
const META = 'search_index_meta';

/** Bump when the tables change; bump ANALYZER_VERSION when analysis (hence every posting) changes. */
const LAYOUT_VERSION = 12;
const ANALYZER_VERSION = 1;
const VERSION = `${LAYOUT_VERSION}.${ANALYZER_VERSION}`;

/** The generation of an organization without documents (generation-hash.ts). */
export const EMPTY_GENERATION = emptyGeneration(VERSION);

const DOCUMENT_COLUMNS = `
  org_key INTEGER,
  doc_no INTEGER,
  title_length INTEGER NOT NULL DEFAULT 0,
  body_length INTEGER NOT NULL DEFAULT 0,
  row_hash BLOB,
  collapse_key INTEGER`;

const INDEX_TABLES = `
CREATE TABLE IF NOT EXISTS ${META} (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS ${DOCS}_doc_no ON ${DOCS} (org_key, doc_no) WHERE deleted = 0;
CREATE TABLE IF NOT EXISTS ${ORGS} (
  org_key INTEGER PRIMARY KEY,
  organization_id TEXT NOT NULL UNIQUE,
  documents INTEGER NOT NULL,
  title_tokens INTEGER NOT NULL,
  body_tokens INTEGER NOT NULL,
  next_doc_no INTEGER NOT NULL,
  posted_doc_no INTEGER NOT NULL,
  generation TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ${POSTINGS} (
  org_key INTEGER NOT NULL,
  grp INTEGER NOT NULL,
  term TEXT NOT NULL,
  part INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (org_key, grp, term, part)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ${DEFERRED_BODIES} (
  org_key INTEGER NOT NULL,
  doc_no INTEGER NOT NULL,
  body BLOB NOT NULL,
  PRIMARY KEY (org_key, doc_no)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ${LENGTHS} (
  org_key INTEGER NOT NULL,
  part INTEGER NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (org_key, part)
) WITHOUT ROWID;
`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ${DOCS} (
  doc_rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL,
  title TEXT NOT NULL,
  body BLOB NOT NULL,
  fields TEXT NOT NULL,
  version INTEGER NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0,
  ${DOCUMENT_COLUMNS}
);
${INDEX_TABLES}`;

/** Everything derived from the documents (and the objects of layout 1). */
const DROP_DERIVED = `
DROP TRIGGER IF EXISTS ${DOCS}_ai;
DROP TRIGGER IF EXISTS ${DOCS}_ad;
DROP TRIGGER IF EXISTS ${DOCS}_au;
DROP TABLE IF EXISTS search_index_fts;
DROP VIEW IF EXISTS search_index_live;
DROP INDEX IF EXISTS ${DOCS}_organization;
DROP INDEX IF EXISTS ${DOCS}_doc_no;
DROP INDEX IF EXISTS ${DOCS}_collapse;
DROP TABLE IF EXISTS ${ORGS};
DROP TABLE IF EXISTS ${POSTINGS};
DROP TABLE IF EXISTS ${LENGTHS};
`;

function tableExists(db: SqliteDatabase, name: string): boolean {
  return (
    db
      .prepare<[string], { n: number }>(
        `SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name = ?`,
      )
      .get(name)?.n === 1
  );
}

function storedVersion(db: SqliteDatabase): string | undefined {
  if (!tableExists(db, META)) return undefined;
  return db.prepare<[], { value: string }>(`SELECT value FROM ${META} WHERE key = 'version'`).get()?.value;
}

function isNewer(stored: string): boolean {
  const [layout, analyzer] = stored.split('.').map(Number);
  return layout > LAYOUT_VERSION || (layout === LAYOUT_VERSION && analyzer > ANALYZER_VERSION);
}

function storedCollapseField(db: SqliteDatabase): string {
  return (
    db.prepare<[], { value: string }>(`SELECT value FROM ${META} WHERE key = 'collapse_field'`).get()
      ?.value ?? ''
  );
}

function recordVersion(db: SqliteDatabase, collapseField: string | undefined): void {
  db.prepare(`INSERT OR REPLACE INTO ${META} (key, value) VALUES ('version', ?)`).run(VERSION);
  db.prepare(`INSERT OR REPLACE INTO ${META} (key, value) VALUES ('collapse_field', ?)`).run(
    collapseField ?? '',
  );
  if (collapseField !== undefined) {
    db.exec(
      `CREATE INDEX IF NOT EXISTS ${DOCS}_collapse ON ${DOCS} (org_key, collapse_key) WHERE deleted = 0`,
    );
  }
}

/** Brings the documents table of any earlier layout to this one: derived columns added, layout 1's removed. */
function migrateDocuments(db: SqliteDatabase): void {
  const columns = new Set(
    db
      .prepare<[], { name: string }>(`SELECT name FROM pragma_table_xinfo('${DOCS}')`)
      .all()
      .map((column) => column.name),
  );
  if (columns.has('org_token')) db.exec(`ALTER TABLE ${DOCS} DROP COLUMN org_token`);
  for (const definition of DOCUMENT_COLUMNS.split(',')) {
    const name = definition.trim().split(/\s+/)[0];
    if (!columns.has(name)) db.exec(`ALTER TABLE ${DOCS} ADD COLUMN ${definition.trim()}`);
  }
  // Fields of an earlier layout (a JSON object, as text or JSONB) encoded as this one stores them (an array: stored
  // by this layout already, kept); reindexing computes the rest.
  db.function(ENCODE_FIELDS_FN, { deterministic: true }, (stored: unknown, json: unknown) =>
    typeof stored === 'string' && stored.startsWith('[')
      ? stored
      : encodeFields(JSON.parse(String(json)) as Fields),
  );
  db.exec(`UPDATE ${DOCS} SET org_key = NULL, doc_no = NULL, title_length = 0, body_length = 0,
    row_hash = NULL, collapse_key = NULL, fields = ${ENCODE_FIELDS_FN}(fields, json(fields))`);
}

/**
 * Creates the tables when missing (one IMMEDIATE transaction, safe with several processes). When the stored
 * layout, analyzer or collapse field differs, the postings are dropped and `reindex` is called, inside the same
 * transaction, to index every live document again.
 */
export function ensureSearchSchema(
  db: SqliteDatabase,
  collapseField: string | undefined,
  reindex: () => void,
  keepBodiesInRows: () => void = () => undefined,
): void {
  db.transaction(() => {
    if (!tableExists(db, DOCS)) {
      db.exec(SCHEMA);
      recordVersion(db, collapseField);
      return;
    }
    const stored = storedVersion(db);
    if (stored === VERSION && storedCollapseField(db) === (collapseField ?? '')) return;
    if (stored !== undefined && isNewer(stored)) {
      // Rebuilding would downgrade a newer build's index (and that build would rebuild it again).
      throw new Error(
        `the search index was built by a newer Cairn (layout ${stored}, this build ${VERSION})`,
      );
    }
    // Re-indexing reads bodies from the rows: a file whose bodies live elsewhere (layout 11 and up) first puts
    // them back, checked against the row hashes that migrateDocuments() clears.
    if (tableExists(db, DEFERRED_BODIES)) keepBodiesInRows();
    db.exec(DROP_DERIVED);
    migrateDocuments(db);
    db.exec(INDEX_TABLES);
    reindex();
    recordVersion(db, collapseField);
  }).immediate();
}

/** Drops and recreates every table: much faster than deleting row by row, and forgets tombstones too (a
 * rebuild replays every version from the start). */
export function recreateSearchSchema(db: SqliteDatabase, collapseField: string | undefined): void {
  db.transaction(() => {
    db.exec(DROP_DERIVED);
    db.exec(
      `DROP TABLE IF EXISTS ${DOCS}; DROP TABLE IF EXISTS ${META}; DROP TABLE IF EXISTS ${DEFERRED_BODIES};`,
    );
    db.exec(SCHEMA);
    recordVersion(db, collapseField);
  }).immediate();
}

/**
 * Files up to this size have their postings table repacked by repackPostings (at a million chunks the file is about
 * 2 GB and is not: its rewrite would hold the write lock for minutes, for a table a few percent of the directory).
 */
export const REPACK_POSTINGS_MAX_FILE_BYTES = 256 * 1024 * 1024;

/**
 * Rewrites the postings table's B-tree in key order (`REINDEX` of a WITHOUT ROWID table rebuilds the table itself),
 * when the file is at most `maxFileBytes`: rows stored partition by partition, each new partition's rows inserted
 * between the earlier ones, leave its pages about 15% empty (SciFact: 521 of 3,391 KB, 194 KB after). The freed
 * pages go back to the file system with `incremental_vacuum` (Stores.compact). Returns whether it ran.
 */
export function repackPostings(db: SqliteDatabase, maxFileBytes = REPACK_POSTINGS_MAX_FILE_BYTES): boolean {
  const pages = Number(db.pragma('page_count', { simple: true }));
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  if (pages * pageSize > maxFileBytes || !tableExists(db, POSTINGS)) return false;
  db.transaction(() => db.exec(`REINDEX ${POSTINGS}`)).immediate();
  return true;
}
