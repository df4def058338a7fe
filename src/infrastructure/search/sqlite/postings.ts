/**
 * Posting lists of the embedded search index, stored as BLOBs keyed by term. Documents are numbered per
 * organization and cut into partitions of PARTITION_SIZE consecutive numbers; one row holds one (organization,
 * term, partition): the term's postings within the partition. So a cold term read costs its own postings, and a
 * write rewrites only the rows of the terms and partitions it touches (new documents land in the newest).
 *
 * Rows are keyed (organization, group, term, partition), a group being GROUP_PARTITIONS consecutive partitions:
 * the rows new documents write sit together in their group's part of the table, so storing a partition touches the
 * pages of its group, not a page of every term the organization has (keyed by term first, each partition stored
 * rewrote nearly every page of the table: a cost that grew with the square of the documents). A term's read is
 * one seek per group.
 *
 * A row's postings are compressed, in blocks of BLOCK_SIZE in document order. The blob: varint posting count;
 * then per block a header — varint last document number minus the previous block's last (the first block:
 * relative to −1), varint highest title tf, varint highest body tf, varint byte length of the block's body — and
 * the body: per posting varint (document number − previous document number − 1), varint title tf, varint body
 * tf. The header lets a reader skip a block or bound its score without decoding it. Document lengths are not in
 * the postings: they are stored once per document (document-lengths.ts).
 *
 * Varints are LEB128 (7 bits a byte, low first): a small term frequency costs one byte, a delta one or two.
 */

export const PARTITION_SIZE = 4096;
export const BLOCK_SIZE = 128;
const U16_MAX = 0xffff;

/**
 * Pending changes of one term: flat triples (docNo, titleTf, bodyTf), in the order they were made; titleTf −1
 * removes the document. A later change of the same document wins.
 */
export type TermChanges = number[];
export const FIELDS_PER_CHANGE = 3;

/** A term's postings decoded, in document order. */
export interface DecodedPostings {
  count: number;
  docs: Int32Array;
  titleTf: Uint16Array;
  bodyTf: Uint16Array;
}

export function partitionOf(docNo: number): number {
  return Math.floor(docNo / PARTITION_SIZE);
}

/** Partitions per group of rows (65,536 documents): a million documents make 16 groups. */
export const GROUP_PARTITIONS = 16;

export function groupOf(part: number): number {
  return Math.floor(part / GROUP_PARTITIONS);
}

/**
 * Appends LEB128 varints to a growing byte array. The encoder reuses two module-level writers: allocating two
 * fresh ones per encoded row cost about 1 s of a 100k-chunk rebuild (over 700,000 rows).
 */
class VarintWriter {
  private bytes = new Uint8Array(4096);
  length = 0;

  write(value: number): void {
    if (this.length + 5 > this.bytes.length) this.grow(this.length + 5);
    let v = value >>> 0;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }

  append(other: VarintWriter): void {
    if (this.length + other.length > this.bytes.length) this.grow(this.length + other.length);
    this.bytes.set(other.bytes.subarray(0, other.length), this.length);
    this.length += other.length;
  }

  reset(): void {
    this.length = 0;
  }

  /** A copy of the bytes written (the writer's array is reused). */
  toBuffer(): Buffer {
    return Buffer.from(this.bytes.subarray(0, this.length));
  }

  private grow(needed: number): void {
    let size = this.bytes.length * 2;
    while (size < needed) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

const encoded = new VarintWriter();
const encodedBlock = new VarintWriter();

/** Reads LEB128 varints from a blob. */
class VarintReader {
  at = 0;

  constructor(private readonly bytes: Uint8Array) {}

  read(): number {
    const { bytes } = this;
    let value = 0;
    let shift = 0;
    for (;;) {
      if (this.at >= bytes.length) throw new Error('corrupt posting list: truncated varint');
      const byte = bytes[this.at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
      shift += 7;
    }
  }
}

/** Encodes postings (document order, each tf already at most U16_MAX); null when there are none. */
export function encodePostings(p: DecodedPostings): Buffer | null {
  return encodeStrided(p.count, p.docs, 0, p.titleTf, 0, p.bodyTf, 0, 1);
}

/**
 * Encodes a term's changes as they are when every one adds a document, in increasing document order (the
 * changes of a partition with no stored row, as new documents make them): no merge with stored postings, and no
 * arrays built for one. Null when they are not such changes (mergePostings() then applies them).
 */
export function encodeNewPostings(changes: TermChanges): Buffer | null {
  const n = changes.length / FIELDS_PER_CHANGE;
  if (n === 0) return null;
  for (let i = 0, at = 0; i < n; i++, at += FIELDS_PER_CHANGE) {
    if (changes[at + 1] < 0) return null;
    if (i > 0 && changes[at] <= changes[at - FIELDS_PER_CHANGE]) return null;
  }
  return encodeStrided(n, changes, 0, changes, 1, changes, 2, FIELDS_PER_CHANGE);
}

/** The blob of `count` postings, the i-th at index `i * stride` (plus each array's offset); tfs capped. */
function encodeStrided(
  count: number,
  docs: ArrayLike<number>,
  docAt: number,
  titles: ArrayLike<number>,
  titleAt: number,
  bodies: ArrayLike<number>,
  bodyAt: number,
  stride: number,
): Buffer | null {
  if (count === 0) return null;
  const out = encoded;
  const body = encodedBlock;
  out.reset();
  out.write(count);
  let previousLast = -1;
  for (let start = 0; start < count; start += BLOCK_SIZE) {
    const end = Math.min(start + BLOCK_SIZE, count);
    body.reset();
    let previous = previousLast;
    let maxTitle = 0;
    let maxBody = 0;
    for (let i = start; i < end; i++) {
      const doc = docs[docAt + i * stride];
      const title = Math.min(titles[titleAt + i * stride], U16_MAX);
      const bodyTf = Math.min(bodies[bodyAt + i * stride], U16_MAX);
      body.write(doc - previous - 1);
      body.write(title);
      body.write(bodyTf);
      previous = doc;
      if (title > maxTitle) maxTitle = title;
      if (bodyTf > maxBody) maxBody = bodyTf;
    }
    out.write(previous - previousLast);
    out.write(maxTitle);
    out.write(maxBody);
    out.write(body.length);
    out.append(body);
    previousLast = previous;
  }
  return out.toBuffer();
}

/** Decodes a row's blob. */
export function decodePostings(blob: Uint8Array): DecodedPostings {
  const r = new VarintReader(blob);
  const count = r.read();
  const docs = new Int32Array(count);
  const titleTf = new Uint16Array(count);
  const bodyTf = new Uint16Array(count);
  let previousLast = -1;
  for (let start = 0; start < count; start += BLOCK_SIZE) {
    const end = Math.min(start + BLOCK_SIZE, count);
    const last = previousLast + r.read();
    r.read(); // highest title tf
    r.read(); // highest body tf
    const length = r.read();
    const bodyEnd = r.at + length;
    let previous = previousLast;
    for (let i = start; i < end; i++) {
      previous = docs[i] = previous + r.read() + 1;
      titleTf[i] = r.read();
      bodyTf[i] = r.read();
    }
    if (r.at !== bodyEnd || previous !== last) throw new Error('corrupt posting list: block mismatch');
    previousLast = last;
  }
  if (r.at !== blob.length) throw new Error('corrupt posting list: trailing bytes');
  return { count, docs, titleTf, bodyTf };
}

/**
 * Indices of `changes`' triples in document order, the last change of each document only; null when that is
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

/** `existing` (may be null) with `changes` applied: two sorted sequences walked together. */
export function mergePostings(existing: DecodedPostings | null, changes: TermChanges): DecodedPostings {
  const order = changeOrder(changes);
  const have = existing?.count ?? 0;
  const wanted = order === null ? changes.length / FIELDS_PER_CHANGE : order.length;
  const docs = new Int32Array(have + wanted);
  const titleTf = new Uint16Array(have + wanted);
  const bodyTf = new Uint16Array(have + wanted);
  let n = 0;
  let i = 0;
  let j = 0;
  while (i < have || j < wanted) {
    const current = existing !== null && i < have ? existing.docs[i] : Infinity;
    const c = j < wanted ? (order === null ? j : order[j]) * FIELDS_PER_CHANGE : -1;
    const next = c >= 0 ? changes[c] : Infinity;
    if (current < next && existing !== null) {
      docs[n] = current;
      titleTf[n] = existing.titleTf[i];
      bodyTf[n++] = existing.bodyTf[i++];
      continue;
    }
    if (current === next) i++;
    j++;
    if (changes[c + 1] >= 0) {
      docs[n] = next;
      titleTf[n] = Math.min(changes[c + 1], U16_MAX);
      bodyTf[n++] = Math.min(changes[c + 2], U16_MAX);
    }
  }
  return {
    count: n,
    docs: docs.subarray(0, n),
    titleTf: titleTf.subarray(0, n),
    bodyTf: bodyTf.subarray(0, n),
  };
}
