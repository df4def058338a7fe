/**
 * One batch of index writes (document-writer.ts): its documents' posting and length changes and each touched
 * organization's statistics and generation, stored at the end of the batch (flush()) or handed over deferred
 * (deferTo()).
 */
import { analyzeDocument } from './analyzer';
import { type LengthChanges, REMOVED } from './document-lengths';
import type { OrgRow, Statements, StoredRow } from './document-statements';
import { GenerationHash, rowHash } from './generation-hash';
import { addDocument, repair, writePostings } from './posting-writes';
import { PostingLog, type TermNumbers } from './posting-log';
import { decodePostings, groupOf, partitionOf, type TermChanges } from './postings';

/** Postings and lengths of new documents not stored yet (deferred), for documents numbered `from` and up. */
export interface Pending {
  from: number;
  log: PostingLog;
  lengths: LengthChanges;
  documents: number;
}

export interface OrgState extends OrgRow {
  /** The generation as the batch changes it. */
  hash: GenerationHash;
  /** The organization's next document number when the batch began: no posting row holds a document from it on. */
  next_doc_no_at_start: number;
  /** Pending changes by term. */
  changes: Map<string, TermChanges>;
  /** A deferring batch's postings instead (documents added in order, none changed or removed). */
  log: PostingLog | null;
  /** Pending document length changes. */
  lengths: LengthChanges;
}

/** One batch's pending posting and statistics changes. */
export class Batch {
  private readonly orgs = new Map<string, OrgState>();

  constructor(
    private readonly statements: Statements,
    /** Where the writer's deferred postings of an organization start, if it holds any the stored row agrees with. */
    private readonly deferredFrom: (org: OrgRow) => number | undefined = () => undefined,
    /** Set for a batch whose postings are deferred (new documents only): they go to a log, numbered by these. */
    private readonly deferring?: TermNumbers,
  ) {}

  /**
   * Adds a document's postings, its slot (`marks`: its collapse value and expiry) and its row hash; returns
   * [org_key, doc_no, title_length, body_length, row_hash] for its row.
   */
  index(
    organizationId: string,
    docNo: number | null,
    id: string,
    version: number,
    title: string,
    body: string,
    fields: string,
    [key, expiry]: readonly [number, number],
  ): [number, number, number, number, Buffer] {
    const org = this.org(organizationId);
    const no = docNo ?? org.next_doc_no++;
    const hash = rowHash(no, id, version, title, body, fields);
    org.hash.toggle(hash);
    const a = analyzeDocument(title, body);
    if (this.deferring === undefined) addDocument(org.changes, org.lengths, no, a, key, expiry);
    else {
      const numbers = this.deferring;
      const log = (org.log ??= new PostingLog(numbers));
      for (const entry of a.entries)
        log.add(numbers.numberOfEntry(entry), no, entry.titleCount, entry.bodyCount);
      org.lengths.set(no, [a.titleLength, a.bodyLength, key, expiry]);
    }
    org.documents += 1;
    org.title_tokens += a.titleLength;
    org.body_tokens += a.bodyLength;
    return [org.org_key, no, a.titleLength, a.bodyLength, hash];
  }

  /**
   * A live document's new version and fields (same postings; `body`: its text): its new row hash, swapped into the
   * generation, and its slot again (the fields may change its collapse value and expiry).
   */
  touch(
    row: StoredRow,
    body: string,
    id: string,
    version: number,
    fields: string,
    [key, expiry]: readonly [number, number],
  ): Buffer {
    const org = this.org(row.organization_id);
    const docNo = row.doc_no as number;
    const hash = rowHash(docNo, id, version, row.title, body, fields);
    org.hash.toggle(storedHash(row));
    org.hash.toggle(hash);
    org.lengths.set(docNo, [row.title_length, row.body_length, key, expiry]);
    return hash;
  }

  /** Removes a live document's postings (found by analyzing its stored text, `body` unpacked, again). */
  unindex(row: StoredRow, body: string): void {
    if (row.doc_no === null) return;
    const org = this.org(row.organization_id);
    org.hash.toggle(storedHash(row));
    for (const { term } of analyzeDocument(row.title, body).entries)
      this.change(org, term).push(row.doc_no, -1, 0);
    org.lengths.set(row.doc_no, REMOVED);
    org.documents -= 1;
    org.title_tokens -= row.title_length;
    org.body_tokens -= row.body_length;
  }

  /**
   * Removes a live document's postings when its indexed text is unknown (body-source.ts): every term's row of the
   * document's partition is read, and the terms holding the document lose it. Costs a read of the partition's
   * rows (all of the organization's terms in it), so it is the fallback, never the way.
   */
  unindexUnknown(row: StoredRow): void {
    if (row.doc_no === null) return;
    const docNo = row.doc_no;
    const org = this.org(row.organization_id);
    org.hash.toggle(storedHash(row));
    const part = partitionOf(docNo);
    for (const { term, data } of this.statements.partitionPostings.all(org.org_key, groupOf(part), part)) {
      if (decodePostings(data).docs.includes(docNo)) this.change(org, term).push(docNo, -1, 0);
    }
    this.unindexed += 1;
    org.lengths.set(docNo, REMOVED);
    org.documents -= 1;
    org.title_tokens -= row.title_length;
    org.body_tokens -= row.body_length;
  }

  /** Documents whose postings unindexUnknown() removed. */
  unindexed = 0;

  /** Writes every touched (term, partition) row and partition of lengths once, and the statistics. */
  flush(): void {
    for (const org of this.sortedOrgs()) {
      writePostings(this.statements, org.org_key, org.next_doc_no_at_start, org.changes, org.lengths);
      this.updateOrg(org);
      // Every document below next_doc_no now has its postings stored.
      this.statements.setPosted.run(org.next_doc_no, org.org_key);
    }
  }

  /**
   * Writes the statistics only and hands the postings and lengths to `pending` (a batch of new documents
   * deferred); returns the organizations touched.
   */
  deferTo(pending: Map<number, Pending>): OrgState[] {
    const numbers = this.deferring;
    if (numbers === undefined) throw new Error('deferTo() of a batch that was not deferring');
    const orgs = this.sortedOrgs();
    for (const org of orgs) {
      this.updateOrg(org);
      let deferred = pending.get(org.org_key);
      if (deferred === undefined) {
        deferred = {
          from: org.posted_doc_no,
          log: new PostingLog(numbers),
          lengths: new Map(),
          documents: 0,
        };
        pending.set(org.org_key, deferred);
      }
      if (org.log !== null) deferred.log.append(org.log);
      for (const [docNo, lengths] of org.lengths) deferred.lengths.set(docNo, lengths);
      deferred.documents += org.lengths.size;
    }
    return orgs;
  }

  private sortedOrgs(): OrgState[] {
    return [...this.orgs.values()].sort((a, b) => a.org_key - b.org_key);
  }

  private updateOrg(org: OrgState): void {
    // Any changed row changed the generation: posting and row caches of every process drop what they hold.
    this.statements.updateOrg.run(
      org.documents,
      org.title_tokens,
      org.body_tokens,
      org.next_doc_no,
      org.hash.toString(),
      org.org_key,
    );
  }

  private org(organizationId: string): OrgState {
    let state = this.orgs.get(organizationId);
    if (state !== undefined) return state;
    let row = this.statements.org.get(organizationId);
    if (row === undefined) {
      this.statements.insertOrg.run(organizationId);
      row = this.statements.org.get(organizationId) as OrgRow;
    }
    if (row.posted_doc_no < row.next_doc_no && this.deferredFrom(row) === undefined) {
      // Documents whose postings no writer holds (a process stopped before storing them): indexed again first.
      repair(this.statements, row);
      row = this.statements.org.get(organizationId) as OrgRow;
    }
    state = {
      ...row,
      next_doc_no_at_start: row.next_doc_no,
      hash: new GenerationHash(row.generation),
      changes: new Map(),
      log: null,
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
