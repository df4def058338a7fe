/**
 * The embedded SearchIndex: SQLite FTS5 with BM25, in the SQLite file shared with the event store and read store.
 *
 * - `search_index_documents` holds every document, plus tombstones (deleted = 1, content cleared) that keep the
 *   version of a delete, so a late older upsert after a newer delete is still ignored.
 * - `search_index_fts` is an external-content FTS5 table over (title, body), kept in sync by triggers; only live
 *   documents are in it. Tokenizer: Porter stemming over unicode61 with diacritics removed.
 * - Writes run in short IMMEDIATE transactions (several processes share the file) of at most WRITE_BATCH
 *   documents, yielding to the event loop between batches.
 * - Search: the FTS5 MATCH drives, each match is joined by rowid to its document, then organization and field
 *   filters apply, ranked by bm25() with the title weighted `title_boost` times the body.
 */
import type { SqliteDatabase } from '../../sqlite/sqlite-connection';
import type { FilterValue, SearchDocument, SearchHit, SearchIndex, SearchQuery } from '../search-index.port';
import { excerptsFromMarked, MATCH_CLOSE, MATCH_OPEN } from './excerpts';
import { filtersSql } from './filter-sql';
import { toFts5MatchExpression } from './query-terms';
import { normalizeQuery, validateDeletes, validateDocuments } from './search-input';

const DOCS = 'search_index_documents';
const FTS = 'search_index_fts';
const WRITE_BATCH = 2_000;
const DUMP_PAGE = 500;
const MAX_CACHED_QUERIES = 200;
const HIGHLIGHTS = { max: 3, context: 80 };

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ${DOCS} (
  doc_rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  fields TEXT NOT NULL,
  version INTEGER NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS ${DOCS}_organization ON ${DOCS} (organization_id) WHERE deleted = 0;
CREATE VIRTUAL TABLE IF NOT EXISTS ${FTS} USING fts5(
  title, body, content = '${DOCS}', content_rowid = 'doc_rowid',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS ${DOCS}_ai AFTER INSERT ON ${DOCS} WHEN new.deleted = 0 BEGIN
  INSERT INTO ${FTS} (rowid, title, body) VALUES (new.doc_rowid, new.title, new.body);
END;
CREATE TRIGGER IF NOT EXISTS ${DOCS}_ad AFTER DELETE ON ${DOCS} WHEN old.deleted = 0 BEGIN
  INSERT INTO ${FTS} (${FTS}, rowid, title, body) VALUES ('delete', old.doc_rowid, old.title, old.body);
END;
CREATE TRIGGER IF NOT EXISTS ${DOCS}_au AFTER UPDATE OF title, body, deleted ON ${DOCS}
WHEN old.deleted != new.deleted OR old.title IS NOT new.title OR old.body IS NOT new.body BEGIN
  INSERT INTO ${FTS} (${FTS}, rowid, title, body)
    SELECT 'delete', old.doc_rowid, old.title, old.body WHERE old.deleted = 0;
  INSERT INTO ${FTS} (rowid, title, body) SELECT new.doc_rowid, new.title, new.body WHERE new.deleted = 0;
END;
`;

const DROP_SCHEMA = `
DROP TRIGGER IF EXISTS ${DOCS}_ai;
DROP TRIGGER IF EXISTS ${DOCS}_ad;
DROP TRIGGER IF EXISTS ${DOCS}_au;
DROP TABLE IF EXISTS ${FTS};
DROP TABLE IF EXISTS ${DOCS};
`;

interface DocumentRow {
  id: string;
  organization_id: string;
  title: string;
  body: string;
  fields: string;
  version: number;
}

interface RankedRow {
  rid: number;
  id: string;
  title: string;
  fields: string;
  score: number;
}

/** The part of a prepared better-sqlite3 statement used here, typed by its parameters and row. */
interface Prepared<P extends unknown[], R = unknown> {
  run(...params: P): unknown;
  get(...params: P): R | undefined;
  all(...params: P): R[];
}

type UpsertParams = [string, string, string, string, string, number];
type HighlightParams = [string, string, string, number];

function parseFields(json: string): Record<string, FilterValue> {
  return JSON.parse(json) as Record<string, FilterValue>;
}

function toDocument(row: DocumentRow): SearchDocument {
  const { id, organization_id, title, body, version } = row;
  return { id, organization_id, title, body, fields: parseFields(row.fields), version };
}

export class SqliteSearchIndex implements SearchIndex {
  private readonly upsertOne: Prepared<UpsertParams>;
  private readonly deleteOne: Prepared<[string, number]>;
  private readonly highlightBody: Prepared<HighlightParams, { marked: string | null }>;
  private readonly getOne: Prepared<[string], DocumentRow>;
  private readonly dumpPage: Prepared<[string, number], DocumentRow>;
  private readonly countAll: Prepared<[], { n: number }>;
  private readonly countOrganization: Prepared<[string], { n: number }>;
  private readonly searchStatements = new Map<string, Prepared<Array<string | number>, RankedRow>>();

  constructor(private readonly db: SqliteDatabase) {
    this.db.transaction(() => this.db.exec(SCHEMA)).immediate();
    this.upsertOne = db.prepare<UpsertParams>(
      `INSERT INTO ${DOCS} (id, organization_id, title, body, fields, version, deleted) VALUES (?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT (id) DO UPDATE SET organization_id = excluded.organization_id, title = excluded.title,
         body = excluded.body, fields = excluded.fields, version = excluded.version, deleted = 0
       WHERE excluded.version >= ${DOCS}.version`,
    );
    this.deleteOne = db.prepare<[string, number]>(
      `INSERT INTO ${DOCS} (id, organization_id, title, body, fields, version, deleted) VALUES (?, '', '', '', '{}', ?, 1)
       ON CONFLICT (id) DO UPDATE SET title = '', body = '', fields = '{}', version = excluded.version, deleted = 1
       WHERE excluded.version >= ${DOCS}.version`,
    );
    this.highlightBody = db.prepare<HighlightParams, { marked: string | null }>(
      `SELECT highlight(${FTS}, 1, ?, ?) AS marked FROM ${FTS} WHERE ${FTS} MATCH ? AND rowid = ?`,
    );
    const columns = 'id, organization_id, title, body, fields, version';
    this.getOne = db.prepare<[string], DocumentRow>(`SELECT ${columns} FROM ${DOCS} WHERE id = ? AND deleted = 0`);
    this.dumpPage = db.prepare<[string, number], DocumentRow>(
      `SELECT ${columns} FROM ${DOCS} WHERE id > ? AND deleted = 0 ORDER BY id LIMIT ?`,
    );
    this.countAll = db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${DOCS} WHERE deleted = 0`);
    this.countOrganization = db.prepare<[string], { n: number }>(
      `SELECT count(*) AS n FROM ${DOCS} WHERE organization_id = ? AND deleted = 0`,
    );
  }

  async upsert(documents: SearchDocument[]): Promise<void> {
    validateDocuments(documents);
    const write = this.db.transaction((batch: SearchDocument[]) => {
      for (const d of batch) {
        this.upsertOne.run(d.id, d.organization_id, d.title, d.body, JSON.stringify(d.fields), d.version);
      }
    });
    await this.inBatches(documents, (batch) => write.immediate(batch));
  }

  async delete(items: Array<{ id: string; version: number }>): Promise<void> {
    validateDeletes(items);
    const write = this.db.transaction((batch: Array<{ id: string; version: number }>) => {
      for (const item of batch) this.deleteOne.run(item.id, item.version);
    });
    await this.inBatches(items, (batch) => write.immediate(batch));
  }

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const q = normalizeQuery(query);
    if (q.terms.length === 0) return [];
    const match = toFts5MatchExpression(q.terms);
    const filters = filtersSql('d.fields', q.filters, q.anyOf);
    // CROSS JOIN keeps the FTS match as the outer loop (the planner could otherwise walk the organization index
    // and re-run the MATCH per document). bm25() is lower-is-better; scores are negated for the port.
    const sql =
      `SELECT d.doc_rowid AS rid, d.id AS id, d.title AS title, d.fields AS fields, ` +
      `-bm25(${FTS}, ?, 1.0) AS score FROM ${FTS} CROSS JOIN ${DOCS} d ON d.doc_rowid = ${FTS}.rowid ` +
      `WHERE ${FTS} MATCH ? AND d.organization_id = ? AND d.deleted = 0 AND ${filters.sql} ` +
      `ORDER BY score DESC, d.id LIMIT ?`;
    const rows = this.searchStatement(sql).all(q.titleBoost, match, q.organizationId, ...filters.params, q.limit);
    return rows.map((row) => {
      const marked = this.highlightBody.get(MATCH_OPEN, MATCH_CLOSE, match, row.rid)?.marked ?? '';
      return {
        id: row.id,
        score: row.score,
        fields: parseFields(row.fields),
        title: row.title,
        highlights: excerptsFromMarked(marked, HIGHLIGHTS),
      };
    });
  }

  async get(id: string): Promise<SearchDocument | null> {
    const row = this.getOne.get(id);
    return row === undefined ? null : toDocument(row);
  }

  async *dump(): AsyncIterable<SearchDocument> {
    // Pages by id (keyset), so no read statement stays open between yields while the caller writes.
    let after = '';
    for (;;) {
      const rows = this.dumpPage.all(after, DUMP_PAGE);
      for (const row of rows) yield toDocument(row);
      if (rows.length < DUMP_PAGE) return;
      after = rows[rows.length - 1].id;
    }
  }

  async count(organizationId?: string): Promise<number> {
    const row = organizationId === undefined ? this.countAll.get() : this.countOrganization.get(organizationId);
    return row?.n ?? 0;
  }

  async reset(): Promise<void> {
    // Dropping and recreating is much faster than deleting row by row through the FTS triggers, and forgets
    // tombstones too: a rebuild replays every version from the start.
    this.db
      .transaction(() => {
        this.db.exec(DROP_SCHEMA);
        this.db.exec(SCHEMA);
      })
      .immediate();
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  /** The connection is shared with the other embedded stores and closed by its owner, not here. */
  async close(): Promise<void> {
    this.searchStatements.clear();
  }

  private searchStatement(sql: string): Prepared<Array<string | number>, RankedRow> {
    let statement = this.searchStatements.get(sql);
    if (statement === undefined) {
      if (this.searchStatements.size >= MAX_CACHED_QUERIES) this.searchStatements.clear();
      statement = this.db.prepare<Array<string | number>, RankedRow>(sql);
      this.searchStatements.set(sql, statement);
    }
    return statement;
  }

  private async inBatches<T>(items: T[], write: (batch: T[]) => void): Promise<void> {
    for (let start = 0; start < items.length; start += WRITE_BATCH) {
      if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      write(items.slice(start, start + WRITE_BATCH));
    }
  }
}
