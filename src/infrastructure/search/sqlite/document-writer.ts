/**
 * Writes of the embedded search index: documents, their postings and the organizations' statistics move
 * together, inside the caller's transaction.
 *
 * - The version guard: a write older than the stored version (document or tombstone) changes nothing; an equal
 *   one re-applies. A write that changes neither title, body nor organization touches no posting.
 * - A changed document's old postings are found by analyzing its title and indexed body again (the analyzer
 *   version is pinned by the schema, see search-schema.ts), and it keeps its document number. With a body source
 *   (body-source.ts) a row keeps its body only while its postings are deferred: the indexed body is the one written
 *   earlier in the same batch, or the source's text when the row hash confirms it; when neither is known, the
 *   document's partition of postings is searched for it (Batch.unindexUnknown).
 * - Changes are collected per term; each touched (term, partition) row of postings and each touched partition of
 *   document lengths is read, merged and written once per batch. Rows of partitions that did not exist before
 *   the batch are not read at all.
 * - Writes are applied in the order given: a new document takes the next rowid and its organization's next
 *   document number, so the same writes in the same order number the same documents, however they are batched.
 *   Each organization's generation moves with its rows' hashes (generation-hash.ts), never at random.
 * - Deferred postings (`apply(…, { defer: true })`: a catch-up's or rebuild's full batches, see
 *   SearchWriteOptions): a batch that only adds new documents writes their rows and the organization's
 *   statistics, but keeps their postings and lengths in this writer's memory, written when a partition fills
 *   (each (term, partition) row of a rebuild written once, never read back), on flushPending() (the index's
 *   refresh()), before any other write, and on close. The organization's `posted_doc_no` says which documents
 *   have their postings stored (every number below it); a writer flushes only if it still matches what its pending
 *   postings started from, and documents at or above it whose postings no live writer holds (a process that
 *   stopped without flushing) are indexed again from their stored text (repair()), by the next write or when the
 *   index is opened. Searches see a document once its postings are stored.
 */
import type { SearchDocument, SearchWrite } from '../search-index.port';
import { packBody, unpackBody } from './body-codec';
import { resolveBodies, storesBody, isIndexedBody, type BodyRow, type SearchBodySource } from './body-source';
import { DEFERRED_BODIES, DOCS } from './search-schema';
import {
  prepareStatements,
  STORED_BODY,
  type OrgRow,
  type Statements,
  type StoredRow,
} from './document-statements';
import { decodeFields, encodeFields } from './field-codec';
import { repair, writeLoggedPostings } from './posting-writes';
import { TermNumbers } from './posting-log';
import type { LengthChanges } from './document-lengths';
import { PARTITION_SIZE, partitionOf } from './postings';
import { Batch, type Pending } from './write-batch';
import type { SqliteDatabase } from '../../sqlite/sqlite-connection';

/** Deferred documents of one organization that make this writer store the full partitions among them. */
export const FLUSH_DOCUMENTS = 2 * PARTITION_SIZE;

const REINDEX_PAGE = 5_000;

/** The body column of a row whose body the source holds. */
const NO_BODY = Buffer.alloc(0);

export class DocumentWriter {
  private readonly statements: Statements;
  /** Deferred postings by organization key. */
  private readonly pending = new Map<number, Pending>();
  /** The term numbers of the deferred postings (started afresh whenever none are held). */
  private numbers = new TermNumbers();

  /** Documents whose old postings were found without their text (Batch.unindexUnknown), since this writer began. */
  unindexedUnknown = 0;

  /** `collapseField`: see prepareStatements; `source`: where bodies are read once rows no longer keep them. */
  constructor(
    db: SqliteDatabase,
    collapseField: string | undefined,
    private readonly source?: SearchBodySource,
  ) {
    this.statements = prepareStatements(db, collapseField, source === undefined);
  }

  /** Whether this writer holds deferred postings. */
  get hasPending(): boolean {
    return this.pending.size > 0;
  }

  /**
   * Upserts and deletes, in order (a later write of the same id sees the earlier one), inside the caller's
   * transaction. With `defer`, a batch of new documents only keeps their postings (see the file's comment).
   */
  apply(writes: readonly SearchWrite[], options: { defer?: boolean } = {}): void {
    const deferring = options.defer === true && this.onlyNewDocuments(writes);
    if (!deferring) this.flushPending();
    if (deferring && this.pending.size === 0 && this.numbers.size > 0) this.numbers = new TermNumbers();
    const batch = new Batch(
      this.statements,
      (org) => this.deferredFrom(org),
      deferring ? this.numbers : undefined,
    );
    const bodies = new IndexedBodies(this.statements, this.source, deferring ? [] : writes);
    for (const write of writes) {
      if (write.kind === 'upsert') this.upsertOne(batch, write.document, bodies, deferring);
      else this.deleteOne(batch, write, bodies);
    }
    this.unindexedUnknown += batch.unindexed;
    if (!deferring) {
      batch.flush();
      return;
    }
    for (const org of batch.deferTo(this.pending)) {
      const pending = this.pending.get(org.org_key)!;
      if (pending.documents >= FLUSH_DOCUMENTS) this.flushOrg(org.org_key, pending, true);
    }
  }

  /** Stores every deferred posting (inside the caller's transaction). */
  flushPending(): void {
    for (const [orgKey, pending] of [...this.pending]) this.flushOrg(orgKey, pending, false);
  }

  /** Forgets deferred postings (the index was reset). */
  dropPending(): void {
    this.pending.clear();
  }

  /** Whether some organization has documents without stored postings that this writer does not hold. */
  needsRepair(): boolean {
    return this.statements.unposted.all().some((org) => !this.pending.has(org.org_key));
  }

  /** Indexes again, from their stored text, documents whose postings were never stored (inside a transaction). */
  repairAll(): void {
    for (const org of this.statements.unposted.all()) {
      if (!this.pending.has(org.org_key)) repair(this.statements, org);
    }
  }

  private onlyNewDocuments(writes: readonly SearchWrite[]): boolean {
    const seen = new Set<string>();
    for (const write of writes) {
      if (write.kind !== 'upsert' || seen.has(write.document.id)) return false;
      seen.add(write.document.id);
      if (this.statements.row.get(write.document.id) !== undefined) return false;
    }
    return true;
  }

  /** Where this writer's deferred postings of `org` start, when it holds any that the stored row agrees with. */
  private deferredFrom(org: OrgRow): number | undefined {
    const pending = this.pending.get(org.org_key);
    if (pending === undefined) return undefined;
    if (pending.from === org.posted_doc_no) return pending.from;
    // Another writer stored or repaired them (or the index was reset): what is stored is the truth.
    this.pending.delete(org.org_key);
    return undefined;
  }

  /**
   * Stores `pending`'s postings and lengths: all of them, or with `fullOnly` those of the partitions below the one
   * the organization's next document falls in (the rest stay pending). Skipped when the stored `posted_doc_no`
   * moved since they were deferred: another writer (or a repair) stored them from the documents' text.
   */
  private flushOrg(orgKey: number, pending: Pending, fullOnly: boolean): void {
    const org = this.statements.orgByKey.get(orgKey);
    this.pending.delete(orgKey);
    if (org === undefined || org.posted_doc_no !== pending.from) {
      if (org !== undefined && org.posted_doc_no < org.next_doc_no) repair(this.statements, org);
      return;
    }
    const upTo = fullOnly ? partitionOf(org.next_doc_no) * PARTITION_SIZE : org.next_doc_no;
    if (upTo <= pending.from) {
      this.pending.set(orgKey, pending);
      return;
    }
    const kept: Pending = { from: upTo, log: pending.log, lengths: new Map(), documents: 0 };
    const storedLengths: LengthChanges = new Map();
    for (const [docNo, lengths] of pending.lengths) {
      if (docNo < upTo) storedLengths.set(docNo, lengths);
      else {
        kept.lengths.set(docNo, lengths);
        kept.documents += 1;
      }
    }
    writeLoggedPostings(this.statements, orgKey, pending.from, pending.log, upTo, storedLengths);
    this.statements.setPosted.run(upTo, orgKey);
    if (this.source !== undefined) this.statements.clearBodies.run(orgKey, pending.from, upTo);
    if (kept.documents > 0) this.pending.set(orgKey, kept);
  }

  private upsertOne(batch: Batch, d: SearchDocument, bodies: IndexedBodies, deferring: boolean): void {
    // A deferring batch's documents were all looked up (onlyNewDocuments), in this transaction: none has a row.
    const row = deferring ? undefined : this.statements.row.get(d.id);
    if (row !== undefined && row.version > d.version) return;
    // The row hash covers the fields as JSON; the row stores them encoded (field-codec.ts).
    const fields = JSON.stringify(d.fields);
    const stored = encodeFields(d.fields);
    const marks = this.statements.marksOf(d.fields);
    const [key] = marks;
    const live = row !== undefined && row.deleted === 0;
    if (
      live &&
      row.organization_id === d.organization_id &&
      row.title === d.title &&
      bodies.isIndexed(row, d.body)
    ) {
      // No posting changes, but a new row hash (fields, version), hence a new generation: caches of looked-up
      // rows (their fields) are per generation.
      const hash = batch.touch(row, d.body, d.id, d.version, fields, marks);
      this.statements.touch.run(stored, d.version, hash, collapseKey(key), row.doc_rowid);
      return;
    }
    let docNo: number | null = null;
    if (live) {
      bodies.unindex(batch, row);
      if (row.organization_id === d.organization_id) docNo = row.doc_no;
    }
    const indexed = batch.index(d.organization_id, docNo, d.id, d.version, d.title, d.body, fields, marks);
    bodies.written(d.id, d.body);
    // With a source, a deferred document's body waits beside the row until its postings are stored.
    if (this.source !== undefined && deferring)
      this.statements.putDeferredBody.run(indexed[0], indexed[1], d.body);
    const values = [
      d.organization_id,
      d.title,
      this.source === undefined ? packBody(d.body) : NO_BODY,
      stored,
      d.version,
      0,
      ...indexed,
      collapseKey(key),
    ] as const;
    if (row === undefined) this.statements.insert.run(d.id, ...values);
    else this.statements.update.run(...values, row.doc_rowid);
  }

  private deleteOne(batch: Batch, item: { id: string; version: number }, bodies: IndexedBodies): void {
    const row = this.statements.row.get(item.id);
    const tombstone = [
      '',
      packBody(''),
      encodeFields({}),
      item.version,
      1,
      null,
      null,
      0,
      0,
      null,
      null,
    ] as const;
    if (row === undefined) {
      this.statements.insert.run(item.id, '', ...tombstone);
      return;
    }
    if (row.version > item.version) return;
    if (row.deleted === 0) bodies.unindex(batch, row);
    this.statements.update.run(row.organization_id, ...tombstone, row.doc_rowid);
  }

  /** Indexes every live document anew (the postings and organizations tables are empty). */
  reindexAll(): void {
    let after = 0;
    for (;;) {
      const rows = this.statements.livePage.all(after, REINDEX_PAGE);
      const batch = new Batch(this.statements);
      const bodies = resolveBodies(rows, this.source);
      for (const row of rows) {
        const { organization_id, id, title, stored_body, version } = row;
        const fields = decodeFields(row.fields);
        const marks = this.statements.marksOf(fields);
        const [key] = marks;
        const body = bodies.get(id);
        // Rows of an earlier layout hold their bodies (keepBodiesInRows ran first): never undefined here.
        if (body === undefined) throw new Error(`search document ${id}: no body to index again`);
        const indexed = batch.index(
          organization_id,
          null,
          id,
          version,
          title,
          body,
          JSON.stringify(fields),
          marks,
        );
        this.statements.update.run(
          organization_id,
          title,
          // A layout before 8 stored the body as text: re-indexing packs it (body-codec.ts); with a source, the
          // source keeps it.
          this.source !== undefined
            ? NO_BODY
            : typeof stored_body === 'string'
              ? packBody(stored_body)
              : stored_body,
          row.fields,
          version,
          0,
          ...indexed,
          collapseKey(key),
          row.doc_rowid,
        );
      }
      batch.flush();
      if (rows.length < REINDEX_PAGE) break;
      after = rows[rows.length - 1].doc_rowid;
    }
    // Every document has its postings stored now.
    this.statements.clearAllBodies.run();
  }
}

/** The collapse_key column of a collapse value (-1, none: NULL, so the collapse index skips it). */
function collapseKey(key: number): number | null {
  return key < 0 ? null : key;
}

/**
 * Puts every live document's body back in its row (from the deferred bodies or the source, each checked against
 * the row hash), before a layout change re-indexes from the rows. A document whose body is known nowhere (a read
 * model that lost it) is deleted from the index rather than indexed with a wrong text: its next write (a replay,
 * `projections:rebuild`) adds it again. Returns the ids deleted.
 */
export function keepBodiesInRows(db: SqliteDatabase, source: SearchBodySource | undefined): string[] {
  const page = db.prepare<[number, number], BodyRow & { doc_rowid: number }>(
    `SELECT doc_rowid, id, doc_no, version, title, fields, row_hash, ${STORED_BODY} FROM ${DOCS} ` +
      `WHERE deleted = 0 AND length(body) = 0 AND doc_rowid > ? ORDER BY doc_rowid LIMIT ?`,
  );
  const put = db.prepare<[Buffer, number]>(`UPDATE ${DOCS} SET body = ? WHERE doc_rowid = ?`);
  const drop = db.prepare<[number]>(`DELETE FROM ${DOCS} WHERE doc_rowid = ?`);
  const dropped: string[] = [];
  let after = 0;
  for (;;) {
    const rows = page.all(after, REINDEX_PAGE);
    const bodies = resolveBodies(rows, source);
    for (const row of rows) {
      const body = bodies.get(row.id);
      if (body === undefined) {
        drop.run(row.doc_rowid);
        dropped.push(row.id);
      } else if (body.length > 0) put.run(packBody(body), row.doc_rowid);
    }
    if (rows.length < REINDEX_PAGE) break;
    after = rows[rows.length - 1].doc_rowid;
  }
  db.exec(`DELETE FROM ${DEFERRED_BODIES}`);
  return dropped;
}

/**
 * The indexed bodies of one apply()'s live rows: written earlier in the batch, stored in the row, or confirmed
 * from the source (asked once, before the batch writes anything, for every row the writes touch).
 */
class IndexedBodies {
  private readonly inBatch = new Map<string, string>();
  private readonly fromSource: Map<string, string>;

  constructor(statements: Statements, source: SearchBodySource | undefined, writes: readonly SearchWrite[]) {
    const rows: StoredRow[] = [];
    if (source !== undefined) {
      const seen = new Set<string>();
      for (const write of writes) {
        const id = write.kind === 'upsert' ? write.document.id : write.id;
        if (seen.has(id)) continue;
        seen.add(id);
        const row = statements.row.get(id);
        if (row !== undefined && row.deleted === 0 && !storesBody(row)) rows.push(row);
      }
    }
    this.fromSource = rows.length === 0 ? new Map() : resolveBodies(rows, source);
  }

  /** Records the body a write of this batch indexed. */
  written(id: string, body: string): void {
    this.inBatch.set(id, body);
  }

  /** Whether `body` is the live row's indexed text. */
  isIndexed(row: StoredRow, body: string): boolean {
    const known = this.inBatch.get(row.id);
    if (known !== undefined) return known === body;
    if (storesBody(row)) return unpackBody(row.stored_body) === body;
    return isIndexedBody(row, body);
  }

  /** Removes the live row's postings: by its indexed text when known, else by searching its partition. */
  unindex(batch: Batch, row: StoredRow): void {
    const body =
      this.inBatch.get(row.id) ??
      (storesBody(row) ? unpackBody(row.stored_body) : this.fromSource.get(row.id));
    if (body === undefined) batch.unindexUnknown(row);
    else batch.unindex(row, body);
  }
}
