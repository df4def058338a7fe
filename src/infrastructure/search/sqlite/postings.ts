/**
 * Posting lists of the embedded search index, stored as BLOBs. Documents are numbered per organization and cut
 * into partitions of PARTITION_SIZE consecutive numbers; terms are spread over BUCKETS buckets by a hash. One row
 * holds one (organization, partition, bucket): the posting lists of the bucket's terms within the partition. So
 * a write rewrites only the partitions it touches (new documents always land in the newest) and at most BUCKETS
 * rows of each, whatever the number of distinct terms (one row per term was 6× slower to write); a query reads
 * one row per partition and query term.
 *
 * A term's block holds `count` postings sorted by document number, column by column (little-endian, read and
 * written through DataView, so the bytes are the same on any host):
 * docNo u32[], bodyLength u32[], titleTf u16[], bodyTf u16[], titleLength u16[] — 14 bytes a posting. Each
 * posting carries its document's lengths, so scoring reads nothing but the postings.
 *
 * A bucket: u32 term count; per term u32 posting count and u16 byte length of the term (UTF-8); the terms'
 * bytes; then the terms' blocks in the same order.
 */

export const PARTITION_SIZE = 4096;
export const BUCKETS = 2048;
const BYTES_PER_POSTING = 14;
const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;

/** A term's block as stored. */
interface EncodedBlock {
  count: number;
  bytes: Uint8Array;
}

/**
 * Pending changes of one term: flat quintuples (docNo, titleTf, bodyTf, titleLength, bodyLength), in the order
 * they were made; titleTf −1 removes the document. A later change of the same document wins.
 */
export type TermChanges = number[];
export const FIELDS_PER_CHANGE = 5;

/**
 * A term's block as stored: `count` postings, column by column. Read through `view` (explicit little-endian
 * DataView access: no copy, no alignment requirement, the same bytes on any host).
 */
export interface PostingBlock {
  count: number;
  view: DataView;
}

/** Byte offsets of the columns of a block of `count` postings. */
export function columnOffsets(count: number): {
  docNo: number;
  bodyLength: number;
  titleTf: number;
  bodyTf: number;
  titleLength: number;
} {
  return { docNo: 0, bodyLength: 4 * count, titleTf: 8 * count, bodyTf: 10 * count, titleLength: 12 * count };
}

export function partitionOf(docNo: number): number {
  return Math.floor(docNo / PARTITION_SIZE);
}

/** Partition numbers stay below 2^20 (document numbers are u32), buckets below 2^11: 31 bits a key's tail. */
const ROW_TAIL = 2 ** 31;
const PART_STRIDE = BUCKETS;

/**
 * The rowid of the postings row of (organization, partition, bucket): in key order, the same whatever order the
 * rows were written in. A number while it is a safe integer (organization keys below 2^22), a bigint beyond.
 */
export function postingRow(orgKey: number, part: number, bucket: number): number | bigint {
  const tail = part * PART_STRIDE + bucket;
  const row = orgKey * ROW_TAIL + tail;
  return Number.isSafeInteger(row) ? row : BigInt(orgKey) * BigInt(ROW_TAIL) + BigInt(tail);
}

/** FNV-1a over the term's UTF-16 code units. Part of the stored layout: changing it needs a layout version. */
export function bucketOf(term: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    hash ^= term.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % BUCKETS;
}

function blockOf(bytes: Uint8Array, count: number): PostingBlock {
  if (bytes.byteLength !== count * BYTES_PER_POSTING) {
    throw new Error(`corrupt posting block: ${bytes.byteLength} bytes for ${count} postings`);
  }
  return { count, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

/**
 * Indices of `changes`' quintuples in document order, the last change of each document only; null when that is
 * every change as it stands (the usual case: new documents, numbered in order).
 */
function changeOrder(changes: TermChanges): number[] | null {
  const n = changes.length / FIELDS_PER_CHANGE;
  let increasing = true;
  for (let i = 1; i < n && increasing; i++) {
    increasing = changes[i * FIELDS_PER_CHANGE] > changes[(i - 1) * FIELDS_PER_CHANGE];
  }
  if (increasing) return null;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => changes[a * FIELDS_PER_CHANGE] - changes[b * FIELDS_PER_CHANGE] || a - b);
  return order.filter(
    (i, k) =>
      k + 1 === order.length || changes[order[k + 1] * FIELDS_PER_CHANGE] !== changes[i * FIELDS_PER_CHANGE],
  );
}

/**
 * Walks `existing` and the ordered changes together (two sorted sequences); `emit` gets each resulting
 * posting: from the block (`from` ≥ 0: its index) or from a change (`change`: its offset in `changes`).
 */
function mergeWalk(
  existing: PostingBlock | null,
  changes: TermChanges,
  order: readonly number[] | null,
  emit: (from: number, change: number) => void,
): void {
  const have = existing?.count ?? 0;
  const view = existing?.view;
  const wanted = order === null ? changes.length / FIELDS_PER_CHANGE : order.length;
  let i = 0;
  let j = 0;
  while (i < have || j < wanted) {
    const current = view !== undefined && i < have ? view.getUint32(4 * i, true) : Infinity;
    const c = j < wanted ? (order === null ? j : order[j]) * FIELDS_PER_CHANGE : -1;
    const next = c >= 0 ? changes[c] : Infinity;
    if (current < next) {
      emit(i++, -1);
      continue;
    }
    if (current === next) i++;
    j++;
    if (changes[c + 1] >= 0) emit(-1, c);
  }
}

/** `existing` (may be null) with `changes` applied, encoded. */
export function mergeBlock(existing: PostingBlock | null, changes: TermChanges): EncodedBlock {
  const order = changeOrder(changes);
  let count = 0;
  mergeWalk(existing, changes, order, () => count++);
  const bytes = new Uint8Array(count * BYTES_PER_POSTING);
  const out = new DataView(bytes.buffer);
  const o = columnOffsets(count);
  const e = columnOffsets(existing?.count ?? 0);
  const src = existing?.view;
  let n = 0;
  mergeWalk(existing, changes, order, (from, c) => {
    if (src !== undefined && from >= 0) {
      out.setUint32(o.docNo + 4 * n, src.getUint32(e.docNo + 4 * from, true), true);
      out.setUint32(o.bodyLength + 4 * n, src.getUint32(e.bodyLength + 4 * from, true), true);
      out.setUint16(o.titleTf + 2 * n, src.getUint16(e.titleTf + 2 * from, true), true);
      out.setUint16(o.bodyTf + 2 * n, src.getUint16(e.bodyTf + 2 * from, true), true);
      out.setUint16(o.titleLength + 2 * n, src.getUint16(e.titleLength + 2 * from, true), true);
    } else {
      out.setUint32(o.docNo + 4 * n, changes[c], true);
      out.setUint32(o.bodyLength + 4 * n, Math.min(changes[c + 4], U32_MAX), true);
      out.setUint16(o.titleTf + 2 * n, Math.min(changes[c + 1], U16_MAX), true);
      out.setUint16(o.bodyTf + 2 * n, Math.min(changes[c + 2], U16_MAX), true);
      out.setUint16(o.titleLength + 2 * n, Math.min(changes[c + 3], U16_MAX), true);
    }
    n++;
  });
  return { count, bytes };
}

/** Walks a bucket's directory: `visit` gets each term's UTF-8 bytes, posting count and block; true stops. */
function walkBucket(
  blob: Uint8Array,
  visit: (termBytes: Uint8Array, count: number, block: Uint8Array) => boolean,
): void {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const terms = view.getUint32(0, true);
  let termAt = 4 + 6 * terms;
  let blockAt = termAt;
  for (let i = 0; i < terms; i++) blockAt += view.getUint16(8 + 6 * i, true);
  for (let i = 0; i < terms; i++) {
    const count = view.getUint32(4 + 6 * i, true);
    const termLength = view.getUint16(8 + 6 * i, true);
    const size = count * BYTES_PER_POSTING;
    if (visit(blob.subarray(termAt, termAt + termLength), count, blob.subarray(blockAt, blockAt + size)))
      return;
    termAt += termLength;
    blockAt += size;
  }
}

/** The block of one term (its UTF-8 bytes) in a bucket, or null. */
export function findInBucket(blob: Buffer, term: Buffer): PostingBlock | null {
  let found: PostingBlock | null = null;
  walkBucket(blob, (termBytes, count, block) => {
    if (term.compare(termBytes) !== 0) return false;
    found = blockOf(block, count);
    return true;
  });
  return found;
}

/** A bucket from its terms' blocks (empty ones left out); null when nothing is left. */
function writeBucket(blocks: ReadonlyMap<string, EncodedBlock>): Buffer | null {
  const entries = [...blocks].filter(([, block]) => block.count > 0).sort(([a], [b]) => (a < b ? -1 : 1));
  if (entries.length === 0) return null;
  const terms = entries.map(([term]) => Buffer.from(term, 'utf8'));
  const header = Buffer.alloc(4 + 6 * entries.length);
  header.writeUInt32LE(entries.length, 0);
  entries.forEach(([, block], i) => {
    header.writeUInt32LE(block.count, 4 + 6 * i);
    header.writeUInt16LE(terms[i].length, 8 + 6 * i);
  });
  return Buffer.concat([header, ...terms, ...entries.map(([, block]) => block.bytes)]);
}

/** `stored` with `changes` (term → its changes) applied; other terms' blocks are copied as they are. */
export function mergeBucket(
  stored: Buffer | undefined,
  changes: ReadonlyMap<string, TermChanges>,
): Buffer | null {
  const blocks = new Map<string, EncodedBlock>();
  if (stored !== undefined) {
    walkBucket(stored, (termBytes, count, bytes) => {
      blocks.set(Buffer.from(termBytes).toString('utf8'), { count, bytes });
      return false;
    });
  }
  for (const [term, termChanges] of changes) {
    const block = blocks.get(term);
    blocks.set(term, mergeBlock(block === undefined ? null : blockOf(block.bytes, block.count), termChanges));
  }
  return writeBucket(blocks);
}
