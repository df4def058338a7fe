/**
 * Where the embedded index finds a document's body once it no longer stores it (issue 32, "each text stored
 * once"). With a body source, a document's row keeps its title, fields, lengths and row hash, and its body only
 * while its postings are deferred (document-writer.ts); the text itself is read from the source (for memory
 * chunks: the read model's chunks, memory-chunk-bodies.ts) when a hit is highlighted, a document is read by
 * get()/dump(), or a changed document's old postings must be found.
 *
 * The source is not trusted: a text it gives is used only when the row hash (generation-hash.ts) computed with it
 * equals the stored one, i.e. it is the text that was indexed. The read model is written after the index (the
 * projection runner writes search first, then commits its read models), so while a write is applied the source
 * still holds the text indexed before; when it does not (a projection rebuilt on its own, a row from another
 * process's uncommitted step), the body is unknown: highlights and get()/dump() show '', and a changed document's
 * old postings are found by reading its partition's postings instead (Batch.unindexUnknown).
 */
import type { FilterValue } from '../search-index.port';
import { unpackBody } from './body-codec';
import { decodeFields } from './field-codec';
import { rowHash } from './generation-hash';

/** A document as the source is asked for it: its id and fields (which name where its text lives). */
export interface BodyRequest {
  id: string;
  fields: Readonly<Record<string, FilterValue>>;
}

export interface SearchBodySource {
  /** The current text of each document the source knows (synchronous: it is read inside the index's transactions). */
  bodies(documents: readonly BodyRequest[]): Map<string, string>;
}

/** What a stored row holds to find and check its body. */
export interface BodyRow {
  id: string;
  doc_no: number | null;
  version: number;
  title: string;
  /** The fields as stored (field-codec.ts). */
  fields: string;
  row_hash: Buffer | null;
  /** The body as stored (body-codec.ts): empty when the source holds it. */
  stored_body: Buffer | string;
}

/** Whether `body` is the text the row was indexed with (its row hash, computed with it, is the stored one). */
export function isIndexedBody(row: BodyRow, body: string, fieldsJson?: string): boolean {
  if (row.row_hash === null || row.doc_no === null) return false;
  const fields = fieldsJson ?? JSON.stringify(decodeFields(row.fields));
  return rowHash(row.doc_no, row.id, row.version, row.title, body, fields).equals(row.row_hash);
}

/** Whether the row stores its body (layouts before 11, a source-less index, deferred postings). */
export function storesBody(row: Pick<BodyRow, 'stored_body'>): boolean {
  return row.stored_body.length > 0;
}

/**
 * The bodies of `rows`: a stored body as stored; the others from `source`, each kept only when it is the indexed
 * text (an empty body is checked too: a document may have none). A row whose body is unknown is left out. Without
 * a source, or for a row without a hash (layouts that stored every body), an empty stored body is the body.
 */
export function resolveBodies(
  rows: readonly BodyRow[],
  source: SearchBodySource | undefined,
): Map<string, string> {
  const found = new Map<string, string>();
  const asked: Array<{ row: BodyRow; fields: Record<string, FilterValue> }> = [];
  for (const row of rows) {
    if (storesBody(row)) found.set(row.id, unpackBody(row.stored_body));
    else if (source === undefined || row.row_hash === null) found.set(row.id, '');
    else asked.push({ row, fields: decodeFields(row.fields) });
  }
  if (asked.length === 0 || source === undefined) return found;
  const given = source.bodies(asked.map(({ row, fields }) => ({ id: row.id, fields })));
  for (const { row, fields } of asked) {
    const json = JSON.stringify(fields);
    const text = given.get(row.id);
    if (text !== undefined && isIndexedBody(row, text, json)) found.set(row.id, text);
    else if (isIndexedBody(row, '', json)) found.set(row.id, '');
  }
  return found;
}
