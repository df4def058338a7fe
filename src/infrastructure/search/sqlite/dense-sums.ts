/**
 * The dense path of ranking (max-score.ts): every posting of a query's terms added to its document's sum, in
 * scratch arrays reused by every query (a ranking runs synchronously), and the kept scores of small terms.
 */
import { bm25, type TermWeighting } from './bm25';
import type { DocumentLengths } from './document-lengths';
import { BLOCK_SIZE } from './postings';
import { decodeBlock, type ScoredPostings, type TermBlocks } from './term-blocks';

/** Sums and marks by document number, and the matched documents in the order first met. */
let denseSums = new Float64Array(1024);
let denseMarks = new Uint8Array(1024);
let denseDocs = new Int32Array(1024);

/** One decoded block at a time, for addTerm and scorePostings. */
const blockDocs = new Int32Array(BLOCK_SIZE);
const blockTitles = new Uint16Array(BLOCK_SIZE);
const blockBodies = new Uint16Array(BLOCK_SIZE);

/** The scratch, grown to `range` document numbers and `postings` matches (sums and marks all zero). */
export function denseScratch(
  range: number,
  postings: number,
): { sums: Float64Array; marks: Uint8Array; docs: Int32Array } {
  if (denseSums.length < range) {
    denseSums = new Float64Array(range);
    denseMarks = new Uint8Array(range);
  }
  if (denseDocs.length < postings) denseDocs = new Int32Array(postings);
  return { sums: denseSums, marks: denseMarks, docs: denseDocs };
}

/**
 * Every posting's score (bm25 of its tfs and its document's length under `weighting`), in document order: what
 * addTerm adds, computed once.
 */
export function scorePostings(
  blocks: TermBlocks,
  weighting: TermWeighting,
  lengths: DocumentLengths,
): ScoredPostings {
  const docs = new Int32Array(blocks.df);
  const scores = new Float64Array(blocks.df);
  const { title, body } = lengths;
  const { w } = weighting;
  let k = 0;
  for (let b = 0; b < blocks.blockCount; b++) {
    const size = decodeBlock(blocks, b, blockDocs, blockTitles, blockBodies);
    for (let i = 0; i < size; i++, k++) {
      const doc = blockDocs[i];
      docs[k] = doc;
      scores[k] = bm25(weighting, w * blockTitles[i] + blockBodies[i], w * title[doc] + body[doc]);
    }
  }
  return { w, docs, scores };
}

/** addTerm with the scores computed already. */
export function addScored(scored: ScoredPostings, weight: number, matched: number): number {
  const sums = denseSums;
  const marks = denseMarks;
  const out = denseDocs;
  const { docs, scores } = scored;
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i];
    if (marks[doc] === 0) {
      marks[doc] = 1;
      out[matched++] = doc;
    }
    sums[doc] += weight * scores[i];
  }
  return matched;
}

/**
 * Adds every posting of a term (its score times `weight`) to the dense sums, listing documents not seen before
 * in `denseDocs` from `matched` on; returns the new count.
 */
export function addTerm(
  blocks: TermBlocks,
  weight: number,
  weighting: TermWeighting,
  lengths: DocumentLengths,
  matched: number,
): number {
  const sums = denseSums;
  const marks = denseMarks;
  const docs = denseDocs;
  const { title, body } = lengths;
  const { w } = weighting;
  for (let b = 0; b < blocks.blockCount; b++) {
    const size = decodeBlock(blocks, b, blockDocs, blockTitles, blockBodies);
    for (let i = 0; i < size; i++) {
      const doc = blockDocs[i];
      if (marks[doc] === 0) {
        marks[doc] = 1;
        docs[matched++] = doc;
      }
      sums[doc] += weight * bm25(weighting, w * blockTitles[i] + blockBodies[i], w * title[doc] + body[doc]);
    }
  }
  return matched;
}
