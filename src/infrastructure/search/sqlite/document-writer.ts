/**
 * Writes of the embedded search index: documents, their postings and the organizations' statistics move
 * together, inside the caller's transaction.
 *
 * - The version guard: a write older than the stored version (document or tombstone) changes nothing; an equal
 *   one re-applies. A write that changes neither title, body nor organization touches no posting.
 * - A changed document's old postings are found by analyzing its stored title and body again (the analyzer
 *   version is pinned by the schema, see search-schema.ts), and it keeps its document number.
 * - Changes are collected per term; each touched (term, partition) row of postings and each touched partition of
 *   document lengths is read, merged and written once per batch. Rows of partitions that did not exist before
 *   the batch are not read at all.
 * - Writes are applied in the order given: a new document takes the next rowid and its organization's next
 *   document number, so the same writes in the same order number the same documents, however they are batched.
 *   Each organization's generation moves with its rows' hashes (generation-hash.ts), never at random.
 */
import type { SqliteDatabase } from '../../sqlite/sqlite-connection';
import type { SearchDocument, SearchWrite } from '../search-index.port';
import { analyzeDocument } from './analyzer';
import { GenerationHash, rowHash } from './generation-hash';
import { type LengthChanges, lengthChangesByPartition, mergeLengths } from './document-lengths';
import {
  decodePostings,
  encodePostings,
  FIELDS_PER_CHANGE,
  mergePostings,
  partitionOf,
  type TermChanges,
} from './postings';
import { DOCS, EMPTY_GENERATION, LENGTHS, ORGS, POSTINGS } from './search-schema';

interface StoredRow {
  doc_rowid: number;
  organization_id: string;
  title: string;
  body: string;
  version: number;
  deleted: number;
  doc_no: number | null;
  title_length: number;
  body_length: number;
  row_hash: Buffer | null;
}

interface OrgRow {
  org_key: number;
  documents: number;
  title_tokens: number;
  body_tokens: number;
  next_doc_no: number;
  generation: string;
}

interface OrgState extends OrgRow {
  /** The generation as the batch changes it. */
  hash: GenerationHash;
  /** Partitions above this one did not exist when the batch began. */
  lastStoredPart: number;
  /** Pending changes by term. */
  changes: Map<string, TermChanges>;
  /** Pending document length changes. */
  lengths: LengthChanges;
}

const REINDEX_PAGE = 5_000;
const COLUMNS =
  'organization_id, title, body, fields, version, deleted, org_key, doc_no, title_length, body_length, row_hash';

function prepareStatements(db: SqliteDatabase) {
  const rowColumns =
    'doc_rowid, organization_id, title, body, version, deleted, doc_no, title_length, body_length, row_hash';
  return {
    row: db.prepare<[string], StoredRow>(`SELECT ${rowColumns} FROM ${DOCS} WHERE id = ?`),
    insert: db.prepare(
      `INSERT INTO ${DOCS} (id, ${COLUMNS}) VALUES (?, ?, ?, ?, jsonb(?), ?, ?, ?, ?, ?, ?, ?)`,
    ),
    update: db.prepare(
      `UPDATE ${DOCS} SET (${COLUMNS}) = (?, ?, ?, jsonb(?), ?, ?, ?, ?, ?, ?, ?) WHERE doc_rowid = ?`,
    ),
    touch: db.prepare(`UPDATE ${DOCS} SET fields = jsonb(?), version = ?, row_hash = ? WHERE doc_rowid = ?`),
    org: db.prepare<[string], OrgRow>(
      `SELECT org_key, documents, title_tokens, body_tokens, next_doc_no, generation FROM ${ORGS} WHERE organization_id = ?`,
    ),
    insertOrg: db.prepare(
      `INSERT INTO ${ORGS} (organization_id, documents, title_tokens, body_tokens, next_doc_no, generation)
       VALUES (?, 0, 0, 0, 0, '${EMPTY_GENERATION}')`,
    ),
    updateOrg: db.prepare(
      `UPDATE ${ORGS} SET documents = ?, title_tokens = ?, body_tokens = ?, next_doc_no = ?, generation = ? WHERE org_key = ?`,
    ),
    postings: db.prepare<[number, string, number], { data: Buffer }>(
      `SELECT data FROM ${POSTINGS} WHERE org_key = ? AND term = ? AND part = ?`,
    ),
    putPostings: db.prepare(
      `INSERT OR REPLACE INTO ${POSTINGS} (org_key, term, part, data) VALUES (?, ?, ?, ?)`,
    ),
    dropPostings: db.prepare(`DELETE FROM ${POSTINGS} WHERE org_key = ? AND term = ? AND part = ?`),
    lengths: db.prepare<[number, number], { data: Buffer }>(
      `SELECT data FROM ${LENGTHS} WHERE org_key = ? AND part = ?`,
    ),
    putLengths: db.prepare(`INSERT OR REPLACE INTO ${LENGTHS} (org_key, part, data) VALUES (?, ?, ?)`),
    livePage: db.prepare<[number, number], StoredRow & { id: string; fields: string }>(
      `SELECT ${rowColumns}, id, json(fields) AS fields FROM ${DOCS} WHERE deleted = 0 AND doc_rowid > ? ORDER BY doc_rowid LIMIT ?`,
    ),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

export class DocumentWriter {
  private readonly statements: Statements;

  constructor(db: SqliteDatabase) {
    this.statements = prepareStatements(db);
  }

  /** Upserts and deletes, in order (a later write of the same id sees the earlier one). */
  apply(writes: readonly SearchWrite[]): void {
    const batch = new Batch(this.statements);
    for (const write of writes) {
      if (write.kind === 'upsert') this.upsertOne(batch, write.document);
      else this.deleteOne(batch, write);
    }
    batch.flush();
  }

  private upsertOne(batch: Batch, d: SearchDocument): void {
    const row = this.statements.row.get(d.id);
    if (row !== undefined && row.version > d.version) return;
    const fields = JSON.stringify(d.fields);
    const live = row !== undefined && row.deleted === 0;
    if (live && row.organization_id === d.organization_id && row.title === d.title && row.body === d.body) {
      // No posting changes, but a new row hash (fields, version), hence a new generation: caches of looked-up
      // rows (their fields) are per generation.
      const hash = batch.touch(row, d.id, d.version, fields);
      this.statements.touch.run(fields, d.version, hash, row.doc_rowid);
      return;
    }
    let docNo: number | null = null;
    if (live) {
      batch.unindex(row);
      if (row.organization_id === d.organization_id) docNo = row.doc_no;
    }
    const indexed = batch.index(d.organization_id, docNo, d.id, d.version, d.title, d.body, fields);
    const values = [d.organization_id, d.title, d.body, fields, d.version, 0, ...indexed] as const;
    if (row === undefined) this.statements.insert.run(d.id, ...values);
    else this.statements.update.run(...values, row.doc_rowid);
  }

  private deleteOne(batch: Batch, item: { id: string; version: number }): void {
    const row = this.statements.row.get(item.id);
    const tombstone = ['', '', '{}', item.version, 1, null, null, 0, 0, null] as const;
    if (row === undefined) {
      this.statements.insert.run(item.id, '', ...tombstone);
      return;
    }
    if (row.version > item.version) return;
    if (row.deleted === 0) batch.unindex(row);
    this.statements.update.run(row.organization_id, ...tombstone, row.doc_rowid);
  }

  /** Indexes every live document anew (the postings and organizations tables are empty). */
  reindexAll(): void {
    let after = 0;
    for (;;) {
      const rows = this.statements.livePage.all(after, REINDEX_PAGE);
      const batch = new Batch(this.statements);
      for (const row of rows) {
        const { organization_id, id, title, body, fields, version } = row;
        const indexed = batch.index(organization_id, null, id, version, title, body, fields);
        this.statements.update.run(
          organization_id,
          title,
          body,
          fields,
          version,
          0,
          ...indexed,
          row.doc_rowid,
        );
      }
      batch.flush();
      if (rows.length < REINDEX_PAGE) return;
      after = rows[rows.length - 1].doc_rowid;
    }
  }
}

/** One batch's pending posting and statistics changes. */
class Batch {
  private readonly orgs = new Map<string, OrgState>();

  constructor(private readonly statements: Statements) {}

  /**
   * Adds a document's postings and its row hash; returns [org_key, doc_no, title_length, body_length, row_hash]
   * for its row.
   */
  index(
    organizationId: string,
    docNo: number | null,
    id: string,
    version: number,
    title: string,
    body: string,
    fields: string,
  ): [number, number, number, number, Buffer] {
    const org = this.org(organizationId);
    const no = docNo ?? org.next_doc_no++;
    const hash = rowHash(no, id, version, title, body, fields);
    org.hash.toggle(hash);
    const a = analyzeDocument(title, body);
    for (const entry of a.entries) this.change(org, entry.term).push(no, entry.titleCount, entry.bodyCount);
    org.lengths.set(no, [a.titleLength, a.bodyLength]);
    org.documents += 1;
    org.title_tokens += a.titleLength;
    org.body_tokens += a.bodyLength;
    return [org.org_key, no, a.titleLength, a.bodyLength, hash];
  }

  /** A live document's new version and fields (same postings): its new row hash, swapped into the generation. */
  touch(row: StoredRow, id: string, version: number, fields: string): Buffer {
    const org = this.org(row.organization_id);
    const hash = rowHash(row.doc_no as number, id, version, row.title, row.body, fields);
    org.hash.toggle(storedHash(row));
    org.hash.toggle(hash);
    return hash;
  }

  /** Removes a live document's postings (found by analyzing its stored text again). */
  unindex(row: StoredRow): void {
    if (row.doc_no === null) return;
    const org = this.org(row.organization_id);
    org.hash.toggle(storedHash(row));
    for (const { term } of analyzeDocument(row.title, row.body).entries)
      this.change(org, term).push(row.doc_no, -1, 0);
    org.lengths.set(row.doc_no, [0, 0]);
    org.documents -= 1;
    org.title_tokens -= row.title_length;
    org.body_tokens -= row.body_length;
  }

  /** Writes every touched (term, partition) row and partition of lengths once. */
  flush(): void {
    const s = this.statements;
    for (const org of [...this.orgs.values()].sort((a, b) => a.org_key - b.org_key)) {
      for (const [term, termChanges] of org.changes) {
        for (const [part, changes] of changesByPartition(termChanges)) {
          const stored = part > org.lastStoredPart ? undefined : s.postings.get(org.org_key, term, part);
          const merged = mergePostings(stored === undefined ? null : decodePostings(stored.data), changes);
          const data = encodePostings(merged);
          if (data !== null) s.putPostings.run(org.org_key, term, part, data);
          else if (stored !== undefined) s.dropPostings.run(org.org_key, term, part);
        }
      }
      for (const [part, changes] of lengthChangesByPartition(org.lengths)) {
        const stored = part > org.lastStoredPart ? undefined : s.lengths.get(org.org_key, part);
        s.putLengths.run(org.org_key, part, mergeLengths(part, stored?.data, changes));
      }
      // Any changed row changed the generation: posting and row caches of every process drop what they hold.
      s.updateOrg.run(
        org.documents,
        org.title_tokens,
        org.body_tokens,
        org.next_doc_no,
        org.hash.toString(),
        org.org_key,
      );
    }
  }

  private org(organizationId: string): OrgState {
    let state = this.orgs.get(organizationId);
    if (state !== undefined) return state;
    let row = this.statements.org.get(organizationId);
    if (row === undefined) {
      this.statements.insertOrg.run(organizationId);
      row = this.statements.org.get(organizationId) as OrgRow;
    }
    const lastStoredPart = row.next_doc_no === 0 ? -1 : partitionOf(row.next_doc_no - 1);
    state = {
      ...row,
      hash: new GenerationHash(row.generation),
      lastStoredPart,
      changes: new Map(),
      lengths: new Map(),
    };
    this.orgs.set(organizationId, state);
    return state;
  }

  private change(org: OrgState, term: string): TermChanges {
    let changes = org.changes.get(term);
    if (changes === undefined) org.changes.set(term, (changes = []));
    return changes;
  }
}

/** A live row's stored hash (every live row has one: layouts without it are reindexed when opened). */
function storedHash(row: StoredRow): Buffer {
  if (row.row_hash === null) throw new Error(`search index row ${row.doc_rowid} is live without a row hash`);
  return row.row_hash;
}

/** A term's changes by partition. */
function changesByPartition(termChanges: TermChanges): Map<number, TermChanges> {
  const first = partitionOf(termChanges[0]);
  if (isOnePartition(termChanges, first)) return new Map([[first, termChanges]]);
  const byPart = new Map<number, TermChanges>();
  for (let i = 0; i < termChanges.length; i += FIELDS_PER_CHANGE) {
    const part = partitionOf(termChanges[i]);
    let list = byPart.get(part);
    if (list === undefined) byPart.set(part, (list = []));
    for (let f = 0; f < FIELDS_PER_CHANGE; f++) list.push(termChanges[i + f]);
  }
  return byPart;
}

function isOnePartition(termChanges: TermChanges, part: number): boolean {
  for (let i = 0; i < termChanges.length; i += FIELDS_PER_CHANGE)
    if (partitionOf(termChanges[i]) !== part) return false;
  return true;
}
