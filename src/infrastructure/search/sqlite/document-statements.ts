/**
 * The prepared statements of the embedded search index's writes (document-writer.ts, posting-writes.ts), and the
 * rows they read.
 */
import type { SqliteDatabase } from '../../sqlite/sqlite-connection';
import type { FilterValue } from '../search-index.port';
import { DEFERRED_BODIES, DOCS, EMPTY_GENERATION, LENGTHS, ORGS, POSTINGS } from './search-schema';

/**
 * A row's stored body: in the row, or (with a body source, while its postings are deferred) in the deferred
 * bodies table. For statements reading ${DOCS} unaliased.
 */
export const STORED_BODY = `coalesce((SELECT b.body FROM ${DEFERRED_BODIES} b WHERE b.org_key = ${DOCS}.org_key AND b.doc_no = ${DOCS}.doc_no), ${DOCS}.body) AS stored_body`;
import { collapseValue, expiryValue } from './search-input';

export interface StoredRow {
  doc_rowid: number;
  id: string;
  organization_id: string;
  title: string;
  /** The body as stored (body-codec.ts). */
  stored_body: Buffer | string;
  version: number;
  deleted: number;
  doc_no: number | null;
  title_length: number;
  body_length: number;
  row_hash: Buffer | null;
  /** The fields as stored (field-codec.ts). */
  fields: string;
}

export interface OrgRow {
  org_key: number;
  documents: number;
  title_tokens: number;
  body_tokens: number;
  next_doc_no: number;
  posted_doc_no: number;
  generation: string;
}

const ORG_COLUMNS = 'org_key, documents, title_tokens, body_tokens, next_doc_no, posted_doc_no, generation';
const COLUMNS =
  'organization_id, title, body, fields, version, deleted, org_key, doc_no, title_length, body_length, row_hash, collapse_key';

/**
 * `collapseField`: the field whose value each document's slot keeps for collapsing (document-lengths.ts), or
 * undefined (every slot without one). `keepsBodies`: false when a body source holds the bodies (body-source.ts).
 */
export function prepareStatements(db: SqliteDatabase, collapseField: string | undefined, keepsBodies = true) {
  const rowColumns = `doc_rowid, id, organization_id, title, ${STORED_BODY}, version, deleted, doc_no, title_length, body_length, row_hash, fields`;
  return {
    /** Whether rows keep their bodies once their postings are stored (false: a body source holds them, body-source.ts). */
    keepsBodies,
    /** What a document's slot keeps of its fields: [collapse value (-1: none), expiry (NaN: none)]. */
    marksOf: (fields: Readonly<Record<string, FilterValue>>): [number, number] => [
      collapseField === undefined ? -1 : collapseValue(fields, collapseField),
      expiryValue(fields),
    ],
    row: db.prepare<[string], StoredRow>(`SELECT ${rowColumns} FROM ${DOCS} WHERE id = ?`),
    insert: db.prepare(`INSERT INTO ${DOCS} (id, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    update: db.prepare(
      `UPDATE ${DOCS} SET (${COLUMNS}) = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) WHERE doc_rowid = ?`,
    ),
    touch: db.prepare(
      `UPDATE ${DOCS} SET fields = ?, version = ?, row_hash = ?, collapse_key = ? WHERE doc_rowid = ?`,
    ),
    org: db.prepare<[string], OrgRow>(`SELECT ${ORG_COLUMNS} FROM ${ORGS} WHERE organization_id = ?`),
    orgByKey: db.prepare<[number], OrgRow>(`SELECT ${ORG_COLUMNS} FROM ${ORGS} WHERE org_key = ?`),
    unposted: db.prepare<[], OrgRow>(`SELECT ${ORG_COLUMNS} FROM ${ORGS} WHERE posted_doc_no < next_doc_no`),
    insertOrg: db.prepare(
      `INSERT INTO ${ORGS} (organization_id, documents, title_tokens, body_tokens, next_doc_no, posted_doc_no, generation)
       VALUES (?, 0, 0, 0, 0, 0, '${EMPTY_GENERATION}')`,
    ),
    updateOrg: db.prepare(
      `UPDATE ${ORGS} SET documents = ?, title_tokens = ?, body_tokens = ?, next_doc_no = ?, generation = ? WHERE org_key = ?`,
    ),
    setPosted: db.prepare(`UPDATE ${ORGS} SET posted_doc_no = ? WHERE org_key = ?`),
    unpostedDocs: db.prepare<
      [number, number],
      { doc_no: number; title: string; stored_body: Buffer | string; fields: string }
    >(
      `SELECT doc_no, title, ${STORED_BODY}, fields FROM ${DOCS} WHERE org_key = ? AND deleted = 0 AND doc_no >= ? ORDER BY doc_no`,
    ),
    /** A (term, partition) row: organization key, the partition's group (postings.ts groupOf), term, partition. */
    postings: db.prepare<[number, number, string, number], { data: Buffer }>(
      `SELECT data FROM ${POSTINGS} WHERE org_key = ? AND grp = ? AND term = ? AND part = ?`,
    ),
    putPostings: db.prepare<[number, number, string, number, Buffer]>(
      `INSERT OR REPLACE INTO ${POSTINGS} (org_key, grp, term, part, data) VALUES (?, ?, ?, ?, ?)`,
    ),
    dropPostings: db.prepare<[number, number, string, number]>(
      `DELETE FROM ${POSTINGS} WHERE org_key = ? AND grp = ? AND term = ? AND part = ?`,
    ),
    lengths: db.prepare<[number, number], { data: Buffer }>(
      `SELECT data FROM ${LENGTHS} WHERE org_key = ? AND part = ?`,
    ),
    /**
     * With a body source: a deferred document's body, kept until its postings are stored, as text (unpackBody reads
     * text as it is): it is deleted within a few thousand documents, so deflating it would only cost the writer.
     */
    putDeferredBody: db.prepare<[number, number, string]>(
      `INSERT OR REPLACE INTO ${DEFERRED_BODIES} (org_key, doc_no, body) VALUES (?, ?, ?)`,
    ),
    /** Deferred bodies whose postings are stored now (documents numbered from the second to the third value). */
    clearBodies: db.prepare<[number, number, number]>(
      `DELETE FROM ${DEFERRED_BODIES} WHERE org_key = ? AND doc_no >= ? AND doc_no < ?`,
    ),
    clearAllBodies: db.prepare(`DELETE FROM ${DEFERRED_BODIES}`),
    /** Every term's postings row of one partition (Batch.unindexUnknown): organization key, group, partition. */
    partitionPostings: db.prepare<[number, number, number], { term: string; data: Buffer }>(
      `SELECT term, data FROM ${POSTINGS} WHERE org_key = ? AND grp = ? AND part = ?`,
    ),
    putLengths: db.prepare(`INSERT OR REPLACE INTO ${LENGTHS} (org_key, part, data) VALUES (?, ?, ?)`),
    livePage: db.prepare<[number, number], StoredRow>(
      `SELECT ${rowColumns} FROM ${DOCS} WHERE deleted = 0 AND doc_rowid > ? ORDER BY doc_rowid LIMIT ?`,
    ),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
