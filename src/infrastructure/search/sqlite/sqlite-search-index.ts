/**
 * The embedded SearchIndex: SQLite FTS5 with BM25, in the SQLite file shared with the event store and read store.
 *
 * - `search_index_documents` holds every document, plus tombstones (deleted = 1, content cleared) that keep the
 *   version of a delete, so a late older upsert after a newer delete is still ignored.
 * - `search_index_fts` is an external-content FTS5 table over the live documents (content: the view
 *   `search_index_live`), kept in sync by triggers; tokenizer: Porter over unicode61, diacritics removed.
 *   Besides title and body it indexes one token per organization (`org_token`, generated from organization_id),
 *   so the MATCH itself is restricted to the organization and only its documents are scored.
 * - Writes run in short IMMEDIATE transactions (several processes share the file) of at most WRITE_BATCH
 *   documents, yielding to the event loop between batches.
 * - Search: ranked by bm25() with the title weighted `title_boost` times the body, then the best candidates are
 *   joined to their documents for the field filters (see rank()); highlights come from FTS5 highlight().
 */
import type { SqliteDatabase } from '../../sqlite/sqlite-connection';
import type { FilterValue, SearchDocument, SearchHit, SearchIndex, SearchQuery } from '../search-index.port';
import { excerptsFromMarked, MATCH_CLOSE, MATCH_OPEN } from './excerpts';
import { DOCS, ensureSearchSchema, FTS, recreateSearchSchema } from './search-schema';
import { filtersSql } from './filter-sql';
import { toFts5MatchExpression } from './query-terms';
import { type NormalizedQuery, normalizeQuery, validateDeletes, validateDocuments } from './search-input';

const WRITE_BATCH = 2_000;
const DUMP_PAGE = 500;
const MAX_CACHED_QUERIES = 200;
/** Candidates ranked in FTS5 per wanted hit before falling back to the full join (see rank()). */
const OVERFETCH = 5;
const HIGHLIGHTS = { max: 3, context: 80 };

interface DocumentRow {
  id: string;
  organization_id: string;
  title: string;
  body: string;
  fields: string;
  version: number;
}

interface CandidateRow {
  rid: number;
  score: number;
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
  private readonly searchStatements = new Map<string, Prepared<Array<string | number>, unknown>>();

  constructor(private readonly db: SqliteDatabase) {
    ensureSearchSchema(db);
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
    // better-sqlite3 binds JS numbers as REAL, and FTS5 silently ignores a `rowid = <real>` constraint (every
    // match comes back): hence the CAST.
    this.highlightBody = db.prepare<HighlightParams, { marked: string | null }>(
      `SELECT highlight(${FTS}, 1, ?, ?) AS marked FROM ${FTS} WHERE ${FTS} MATCH ? AND rowid = CAST(? AS INTEGER)`,
    );
    const columns = 'id, organization_id, title, body, fields, version';
    this.getOne = db.prepare<[string], DocumentRow>(
      `SELECT ${columns} FROM ${DOCS} WHERE id = ? AND deleted = 0`,
    );
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
    const match = toFts5MatchExpression(q.organizationId, q.terms);
    const rows = this.rank(match, q);
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

  /**
   * The organization is in the MATCH (its token column), so FTS5 intersects doclists and scores only that
   * organization's documents. bm25() is lower-is-better (negated for the port); the token column weighs nothing.
   *
   * Scoring every match is cheap; joining every match to its document is not (it doubled the time for common
   * terms). So first the best `limit × OVERFETCH` matches are ranked inside FTS5 and only those are looked up
   * and filtered; only when filters reject too many of them does the full join run (FTS5 match as the outer
   * loop: CROSS JOIN stops the planner from walking documents and re-running the MATCH for each).
   */
  private rank(match: string, q: NormalizedQuery): RankedRow[] {
    const filters = filtersSql('d.fields', q.filters, q.anyOf);
    const score = `-bm25(${FTS}, ?, 1.0, 0.0)`;
    const wanted = q.limit * OVERFETCH;
    const candidates = this.statement<CandidateRow>(
      `SELECT rowid AS rid, ${score} AS score FROM ${FTS} WHERE ${FTS} MATCH ? ORDER BY score DESC, rowid LIMIT ?`,
    ).all(q.titleBoost, match, wanted);
    const found = this.statement<RankedRow>(
      `SELECT d.doc_rowid AS rid, d.id AS id, d.title AS title, d.fields AS fields, 0 AS score FROM ${DOCS} d ` +
        `WHERE d.doc_rowid IN (SELECT value FROM json_each(?)) AND d.organization_id = ? AND d.deleted = 0 ` +
        `AND ${filters.sql}`,
    ).all(JSON.stringify(candidates.map((c) => c.rid)), q.organizationId, ...filters.params);
    const byRowid = new Map(found.map((row) => [row.rid, row]));
    const ranked = candidates.flatMap((c) => {
      const row = byRowid.get(c.rid);
      return row === undefined ? [] : [{ ...row, score: c.score }];
    });
    if (ranked.length >= q.limit || candidates.length < wanted) return ranked.slice(0, q.limit);
    return this.statement<RankedRow>(
      `SELECT d.doc_rowid AS rid, d.id AS id, d.title AS title, d.fields AS fields, ${score} AS score ` +
        `FROM ${FTS} CROSS JOIN ${DOCS} d ON d.doc_rowid = ${FTS}.rowid ` +
        `WHERE ${FTS} MATCH ? AND d.organization_id = ? AND d.deleted = 0 AND ${filters.sql} ` +
        `ORDER BY score DESC, d.doc_rowid LIMIT ?`,
    ).all(q.titleBoost, match, q.organizationId, ...filters.params, q.limit);
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
    const row =
      organizationId === undefined ? this.countAll.get() : this.countOrganization.get(organizationId);
    return row?.n ?? 0;
  }

  async reset(): Promise<void> {
    recreateSearchSchema(this.db);
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  /** The connection is shared with the other embedded stores and closed by its owner, not here. */
  async close(): Promise<void> {
    this.searchStatements.clear();
  }

  /** Search statements vary with the filters; prepared ones are cached by their SQL. */
  private statement<R>(sql: string): Prepared<Array<string | number>, R> {
    let statement = this.searchStatements.get(sql);
    if (statement === undefined) {
      if (this.searchStatements.size >= MAX_CACHED_QUERIES) this.searchStatements.clear();
      statement = this.db.prepare<Array<string | number>, unknown>(sql);
      this.searchStatements.set(sql, statement);
    }
    // The caller names the row shape its own SQL selects.
    return statement as Prepared<Array<string | number>, R>;
  }

  private async inBatches<T>(items: T[], write: (batch: T[]) => void): Promise<void> {
    for (let start = 0; start < items.length; start += WRITE_BATCH) {
      if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      write(items.slice(start, start + WRITE_BATCH));
    }
  }
}
