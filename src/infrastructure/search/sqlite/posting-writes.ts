/**
 * Stores posting and length changes of one organization (document-writer.ts), and indexes again from their stored
 * text documents whose deferred postings were never stored (then drops that text when a body source holds it).
 */
import { decodeFields } from './field-codec';
import { unpackBody } from './body-codec';
import { analyzeDocument, type DocumentTerms } from './analyzer';
import { type LengthChanges, lengthChangesByPartition, mergeLengths } from './document-lengths';
import type { OrgRow, Statements } from './document-statements';
import { PostingLog } from './posting-log';
import {
  decodePostings,
  encodeNewPostings,
  encodePostings,
  FIELDS_PER_CHANGE,
  groupOf,
  mergePostings,
  partitionOf,
  type TermChanges,
} from './postings';

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

/**
 * Stores `changes` and `lengths` of one organization: each touched (term, partition) row and partition of lengths
 * read (when it may exist: documents below `storedBelow` have stored postings), merged and written once.
 */
export function writePostings(
  s: Statements,
  orgKey: number,
  storedBelow: number,
  changes: Map<string, TermChanges>,
  lengths: LengthChanges,
): void {
  const lastStoredPart = storedBelow === 0 ? -1 : partitionOf(storedBelow - 1);
  const terms = [...changes.keys()].sort();
  for (const term of terms) {
    const termChanges = changes.get(term)!;
    for (const [part, partChanges] of changesByPartition(termChanges)) {
      const group = groupOf(part);
      const stored = part > lastStoredPart ? undefined : s.postings.get(orgKey, group, term, part);
      const data =
        (stored === undefined ? encodeNewPostings(partChanges) : null) ??
        encodePostings(mergePostings(stored === undefined ? null : decodePostings(stored.data), partChanges));
      if (data !== null) s.putPostings.run(orgKey, group, term, part, data);
      else if (stored !== undefined) s.dropPostings.run(orgKey, group, term, part);
    }
  }
  writeLengths(s, orgKey, lastStoredPart, lengths);
}

/**
 * Stores the postings `log` holds for documents below `upTo` (taking them out of it) and `lengths` of one
 * organization, as writePostings() does, but rows in the table's key order, each from typed arrays: a deferred
 * catch-up's or rebuild's postings, every one a new document's.
 */
export function writeLoggedPostings(
  s: Statements,
  orgKey: number,
  storedBelow: number,
  log: PostingLog,
  upTo: number,
  lengths: LengthChanges,
): void {
  const lastStoredPart = storedBelow === 0 ? -1 : partitionOf(storedBelow - 1);
  log.take(upTo, (row) => {
    const stored =
      row.part > lastStoredPart ? undefined : s.postings.get(orgKey, row.group, row.term, row.part);
    const data = encodePostings(
      stored === undefined ? row : mergePostings(decodePostings(stored.data), PostingLog.asChanges(row)),
    );
    if (data !== null) s.putPostings.run(orgKey, row.group, row.term, row.part, data);
  });
  writeLengths(s, orgKey, lastStoredPart, lengths);
}

function writeLengths(s: Statements, orgKey: number, lastStoredPart: number, lengths: LengthChanges): void {
  for (const [part, partChanges] of lengthChangesByPartition(lengths)) {
    const stored = part > lastStoredPart ? undefined : s.lengths.get(orgKey, part);
    s.putLengths.run(orgKey, part, mergeLengths(part, stored?.data, partChanges));
  }
}

/**
 * Indexes `org`'s live documents numbered `posted_doc_no` and up from their stored title and body (their postings
 * were deferred by a writer that stopped before storing them), then marks every document posted.
 */
export function repair(s: Statements, org: OrgRow): void {
  const changes = new Map<string, TermChanges>();
  const lengths: LengthChanges = new Map();
  for (const doc of s.unpostedDocs.iterate(org.org_key, org.posted_doc_no)) {
    addDocument(
      changes,
      lengths,
      doc.doc_no,
      analyzeDocument(doc.title, unpackBody(doc.stored_body)),
      ...s.marksOf(decodeFields(doc.fields)),
    );
  }
  writePostings(s, org.org_key, org.posted_doc_no, changes, lengths);
  s.setPosted.run(org.next_doc_no, org.org_key);
  if (!s.keepsBodies) s.clearBodies.run(org.org_key, org.posted_doc_no, org.next_doc_no);
}

/**
 * Adds an analyzed document's postings and slot (its lengths, collapse value `key` and `expiry`) to pending
 * changes.
 */
export function addDocument(
  changes: Map<string, TermChanges>,
  lengths: LengthChanges,
  docNo: number,
  a: DocumentTerms,
  key: number,
  expiry: number,
): void {
  for (const entry of a.entries) {
    let list = changes.get(entry.term);
    if (list === undefined) changes.set(entry.term, (list = []));
    list.push(docNo, entry.titleCount, entry.bodyCount);
  }
  lengths.set(docNo, [a.titleLength, a.bodyLength, key, expiry]);
}
