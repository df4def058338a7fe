/**
 * A search document's body as the documents table stores it: raw DEFLATE (RFC 1951) of its UTF-8 bytes. Memory
 * chunks are prose of about 800 bytes that deflate to about half (the read model keeps the same text, so the body
 * is the second copy of every chunk); the documents table is read by highlights, `get`/`dump`, and a changed
 * document's old postings (its old text analyzed again), never by ranking. An empty body is stored as an empty
 * BLOB. Text stored by layouts before 8 is compressed when the index is opened (search-schema.ts); a text value is
 * still read as it is.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** The stored form of `body`. */
export function packBody(body: string): Buffer {
  if (body.length === 0) return Buffer.alloc(0);
  return deflateRawSync(Buffer.from(body, 'utf8'));
}

/** The body of a stored value: a packed BLOB, or text (layouts before 8, tombstones). */
export function unpackBody(stored: Buffer | Uint8Array | string | null): string {
  if (stored === null) return '';
  if (typeof stored === 'string') return stored;
  if (stored.length === 0) return '';
  return inflateRawSync(stored).toString('utf8');
}
