/**
 * An organization's `generation`: a 128-bit digest of its live documents as stored, the XOR of one 16-byte hash
 * per document row (SHA-256 of its number, id, version, title, body and fields, cut to 16 bytes) and of a seed
 * naming the index's layout and analyzer versions. Kept up to date as documents are added, changed and removed
 * (XOR adds and removes alike), so it is a function of what the organization's rows hold, not of when or in which
 * batches they were written: a rebuild from the same events stores the same value, and any write that changes a
 * row changes it (posting and row caches are valid for one generation: posting-cache.ts, row-cache.ts). Another
 * layout or analyzer (a different build on the same file) starts from another seed.
 */
import { createHash } from 'node:crypto';

export const ROW_HASH_BYTES = 16;

/** The hash of one stored document row; its fields as the JSON text written. */
export function rowHash(
  docNo: number,
  id: string,
  version: number,
  title: string,
  body: string,
  fields: string,
): Buffer {
  return createHash('sha256')
    .update(`${docNo}\u0000${version}\u0000${id.length}\u0000${id}\u0000${title.length}\u0000${fields}\u0000`)
    .update(title)
    .update(body)
    .digest()
    .subarray(0, ROW_HASH_BYTES);
}

/** The generation of an organization without documents, for an index of `version` (layout.analyzer). */
export function emptyGeneration(version: string): string {
  return createHash('sha256')
    .update(`cairn search index ${version}`)
    .digest()
    .subarray(0, ROW_HASH_BYTES)
    .toString('hex');
}

/** A generation being updated: toggle each row hash added or removed. */
export class GenerationHash {
  private readonly bytes: Buffer;

  constructor(generation: string) {
    this.bytes = Buffer.from(generation, 'hex');
    if (this.bytes.length !== ROW_HASH_BYTES) throw new Error(`corrupt search generation "${generation}"`);
  }

  toggle(hash: Uint8Array): void {
    for (let i = 0; i < ROW_HASH_BYTES; i++) this.bytes[i] ^= hash[i];
  }

  toString(): string {
    return this.bytes.toString('hex');
  }
}
