/**
 * A term's stored postings as a query reads them: the rows' blobs as stored (postings.ts) and an index of their
 * blocks made from the block headers alone, so a query decodes only the blocks it needs (max-score.ts) and the
 * posting cache keeps postings compressed (about 3 bytes a posting, where decoded scores took 12).
 */
import type { BlockMaxima } from './block-maxima';
import { BLOCK_SIZE, PARTITION_SIZE } from './postings';

export interface TermBlocks {
  /** Postings in all rows (the term's document frequency). */
  df: number;
  blockCount: number;
  /** Per block: its last document number. */
  last: Int32Array;
  /** Per block: the document number its first delta counts from (the previous block's last, or −1). */
  base: Int32Array;
  /** Per block: how many postings it holds. */
  count: Uint8Array;
  /** Per block: which row's blob holds it, and where its body starts in that blob. */
  row: Uint32Array;
  offset: Uint32Array;
  /** Per block: its highest title and body term frequencies. */
  maxTitle: Uint16Array;
  maxBody: Uint16Array;
  rows: Uint8Array[];
  /**
   * Every posting's score under title weight `w` (in this generation's statistics), kept for terms with few
   * postings (max-score.ts SCORED_POSTINGS): adding them up then takes no decoding and no length lookups.
   */
  scored: ScoredPostings | null;
  /**
   * Each block's exact highest score under one weighting (block-maxima.ts), computed when the cached term is ranked
   * again; null until then. Ranking bounds blocks by their headers without them.
   */
  maxima: BlockMaxima | null;
  /** What keeping it costs (blobs, index, scores, and the maxima it may get: counted from the start). */
  bytes: number;
}

export interface ScoredPostings {
  w: number;
  docs: Int32Array;
  scores: Float64Array;
}

/** Bytes of index per block (the typed arrays above, and the f64 of the maxima a cached term may get). */
const INDEX_BYTES_PER_BLOCK = 4 + 4 + 1 + 4 + 4 + 2 + 2 + 8;

function corrupt(what: string): Error {
  return new Error(`corrupt posting list: ${what}`);
}

/**
 * Reads LEB128 varints of one blob: `read()` returns the next and moves `at` past it. A class with the position as
 * a field, a one-byte fast path and a running multiplier (no `2 ** shift` per byte): the block headers of a cold
 * query's terms at 1M chunks (~4,000 blocks, four varints each) took ~1 ms to read as a function over a `{ at }`
 * object (CPU profile at 82172af).
 */
class VarintReader {
  at = 0;

  constructor(private readonly bytes: Uint8Array) {}

  read(): number {
    const { bytes } = this;
    if (this.at >= bytes.length) throw corrupt('truncated varint');
    let byte = bytes[this.at++];
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    // Values stay below 2^35 (five bytes): a multiplication keeps them exact where << would overflow 32 bits.
    for (let scale = 0x80; ; scale *= 0x80) {
      if (this.at >= bytes.length) throw corrupt('truncated varint');
      byte = bytes[this.at++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      if (scale >= 0x10000000) throw corrupt('varint too long');
    }
  }
}

/** The block index of a term's rows (in partition order, as the rows are keyed). */
export function readTermBlocks(rows: Uint8Array[]): TermBlocks {
  let df = 0;
  let blockCount = 0;
  const counts = new Array<number>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const count = new VarintReader(rows[r]).read();
    // A row holds one partition's postings: an edited count could otherwise size the index arrays at gigabytes.
    if (count > PARTITION_SIZE) throw corrupt('more postings than a partition has documents');
    counts[r] = count;
    df += count;
    blockCount += Math.ceil(count / BLOCK_SIZE);
  }
  const blocks: TermBlocks = {
    df,
    blockCount,
    last: new Int32Array(blockCount),
    base: new Int32Array(blockCount),
    count: new Uint8Array(blockCount),
    row: new Uint32Array(blockCount),
    offset: new Uint32Array(blockCount),
    maxTitle: new Uint16Array(blockCount),
    maxBody: new Uint16Array(blockCount),
    rows,
    scored: null,
    maxima: null,
    bytes: blockCount * INDEX_BYTES_PER_BLOCK,
  };
  let b = 0;
  let previous = -1;
  for (let r = 0; r < rows.length; r++) {
    const blob = rows[r];
    blocks.bytes += blob.length;
    const reader = new VarintReader(blob);
    const count = reader.read();
    let previousLast = -1;
    for (let start = 0; start < count; start += BLOCK_SIZE, b++) {
      const last = previousLast + reader.read();
      if (last <= previous) throw corrupt('blocks out of order');
      blocks.base[b] = previousLast;
      blocks.last[b] = last;
      blocks.count[b] = Math.min(BLOCK_SIZE, count - start);
      blocks.maxTitle[b] = reader.read();
      blocks.maxBody[b] = reader.read();
      const length = reader.read();
      blocks.row[b] = r;
      blocks.offset[b] = reader.at;
      reader.at += length;
      if (reader.at > blob.length) throw corrupt('block past the end');
      previousLast = previous = last;
    }
    if (reader.at !== blob.length) throw corrupt('trailing bytes');
    if (counts[r] !== count) throw corrupt('count changed');
  }
  return blocks;
}

/** Returned by `doc` once a cursor has passed its last posting. */
export const END = 0x7fffffff;

/**
 * Walks one term's postings in document order, decoding a block only when a posting in it is asked for. The
 * current posting is `doc` (END when none is left) with its tfs `titleTf()` / `bodyTf()`.
 */
export class BlockCursor {
  doc = END;
  /** The block decoded into the arrays below (−1: none), and the position in it. */
  private decoded = -1;
  private at = 0;
  private size = 0;
  /** The block `doc` is in, or the block a `seekBlock` stopped at. */
  block = 0;
  /** Blocks decoded (what a query cost; its ranker zeroes it). */
  decodedBlocks = 0;
  private readonly docs = new Int32Array(BLOCK_SIZE);
  private readonly titles = new Uint16Array(BLOCK_SIZE);
  private readonly bodies = new Uint16Array(BLOCK_SIZE);

  constructor(readonly blocks: TermBlocks) {
    this.reset();
  }

  /** Back at the first posting. */
  reset(): void {
    this.decoded = -1;
    this.block = 0;
    if (this.blocks.blockCount === 0) {
      this.doc = END;
      return;
    }
    this.decode(0);
    this.doc = this.docs[0];
  }

  titleTf(): number {
    return this.titles[this.at];
  }

  bodyTf(): number {
    return this.bodies[this.at];
  }

  /** The next posting. */
  next(): number {
    if (this.doc === END) return END;
    if (++this.at < this.size) return (this.doc = this.docs[this.at]);
    if (this.block + 1 >= this.blocks.blockCount) return (this.doc = END);
    this.block += 1;
    this.decode(this.block);
    return (this.doc = this.docs[0]);
  }

  /**
   * Moves `block` to the first block whose last document is at least `target` without decoding any (`doc` is
   * then stale until `advance`); false when no block is left. Never moves back.
   */
  seekBlock(target: number): boolean {
    const { last, blockCount } = this.blocks;
    let b = this.block;
    if (b >= blockCount) return false;
    if (last[b] >= target) return true;
    // Galloping: double the step until past the target, then a binary search in the last step.
    let step = 1;
    let hi = b + 1;
    while (hi < blockCount && last[hi] < target) {
      b = hi;
      step *= 2;
      hi = b + step;
    }
    let lo = b + 1;
    let end = Math.min(hi, blockCount);
    while (lo < end) {
      const mid = (lo + end) >>> 1;
      if (last[mid] < target) lo = mid + 1;
      else end = mid;
    }
    this.block = lo;
    return lo < blockCount;
  }

  /**
   * Moves to the first posting of block `b` (after the current one; END when there is none), decoding it: the
   * caller has read from the headers that the blocks in between cannot matter.
   */
  toBlock(b: number): number {
    if (b >= this.blocks.blockCount) {
      this.block = this.blocks.blockCount;
      return (this.doc = END);
    }
    this.decode(b);
    return (this.doc = this.docs[0]);
  }

  /**
   * Moves past every posting before `target` (never back) without decoding a block it has not decoded: `doc` is the
   * posting when its block is decoded, else stale (nextAtLeast() bounds it from the headers) until `advance`.
   */
  skipTo(target: number): void {
    if (this.doc >= target && this.decoded === this.block) return;
    if (!this.seekBlock(target)) {
      this.doc = END;
      return;
    }
    if (this.decoded !== this.block) return;
    const { docs } = this;
    let i = this.at;
    while (docs[i] < target) i++;
    this.at = i;
    this.doc = docs[i];
  }

  /**
   * The next posting's document, or a lower bound of it read from the headers when its block is not decoded (a
   * document of the block's partition: a row's blocks hold one partition); END when none is left.
   */
  nextAtLeast(): number {
    const { blockCount, base, last } = this.blocks;
    if (this.block >= blockCount) return END;
    if (this.decoded === this.block) return this.doc;
    const highest = last[this.block];
    return Math.max(base[this.block] + 1, highest - (highest % PARTITION_SIZE));
  }

  /** Moves to the first posting at or after `target` (never back); its document, or END. */
  advance(target: number): number {
    if (this.doc >= target && this.decoded === this.block) return this.doc;
    if (!this.seekBlock(target)) return (this.doc = END);
    if (this.decoded !== this.block) {
      this.decode(this.block);
    }
    const { docs } = this;
    let i = this.at;
    while (docs[i] < target) i++;
    this.at = i;
    return (this.doc = docs[i]);
  }

  private decode(b: number): void {
    this.size = decodeBlock(this.blocks, b, this.docs, this.titles, this.bodies);
    this.decoded = b;
    this.decodedBlocks += 1;
    this.block = b;
    this.at = 0;
  }
}

/** Decodes block `b` of `blocks` into the arrays (BLOCK_SIZE long); returns its posting count. */
export function decodeBlock(
  blocks: TermBlocks,
  b: number,
  docs: Int32Array,
  titles: Uint16Array,
  bodies: Uint16Array,
): number {
  const bytes = blocks.rows[blocks.row[b]];
  let at = blocks.offset[b];
  const size = blocks.count[b];
  let doc = blocks.base[b];
  for (let i = 0; i < size; i++) {
    // Three varints a posting; one byte each, mostly (a delta over 127 or a tf over 127 takes more).
    let byte = bytes[at++];
    let delta = byte & 0x7f;
    for (let shift = 7; byte >= 0x80; shift += 7) {
      byte = bytes[at++];
      delta += (byte & 0x7f) * 2 ** shift;
    }
    byte = bytes[at++];
    let title = byte & 0x7f;
    for (let shift = 7; byte >= 0x80; shift += 7) {
      byte = bytes[at++];
      title += (byte & 0x7f) * 2 ** shift;
    }
    byte = bytes[at++];
    let body = byte & 0x7f;
    for (let shift = 7; byte >= 0x80; shift += 7) {
      byte = bytes[at++];
      body += (byte & 0x7f) * 2 ** shift;
    }
    doc += delta + 1;
    docs[i] = doc;
    titles[i] = title;
    bodies[i] = body;
  }
  // A changed byte decodes to another last document (or NaN past the end) than the header says.
  if (doc !== blocks.last[b]) throw corrupt('block mismatch');
  return size;
}
