/**
 * Each block's highest score, computed exactly from its postings and their documents' lengths (max-score.ts
 * bounds with them once a term's postings are cached and ranked again).
 *
 * A block's header bounds its score by its highest title and body tfs in the organization's shortest document: the
 * tfs may come from different postings, and few documents are that short, so at 1M synthetic chunks the header bound
 * is well above what any of its documents scores (a bound 20–30% high lets through documents that cannot enter).
 * The exact maxima cost one pass over the term's postings per weighting (a term's weighting is fixed within an
 * organization's generation, for one title weight; posting-cache.ts), so a cold query, which reads and ranks a term
 * once, keeps the header bounds; the search index computes the maxima when a cached term is asked for again
 * (sqlite-search-index.ts blocksOf).
 */
import { bm25, type TermWeighting } from './bm25';
import type { DocumentLengths } from './document-lengths';
import { BLOCK_SIZE } from './postings';
import { decodeBlock, type TermBlocks } from './term-blocks';

export interface BlockMaxima {
  /** The weighting the scores were computed under (the same numbers, not only the same title weight). */
  weighting: TermWeighting;
  /** Per block, its postings' highest score (query weight 1) under `weighting`. */
  scores: Float64Array;
}

const blockDocs = new Int32Array(BLOCK_SIZE);
const blockTitles = new Uint16Array(BLOCK_SIZE);
const blockBodies = new Uint16Array(BLOCK_SIZE);

/**
 * The blocks' maxima under `weighting`: each posting scored by the same expression as ranking scores it (bm25() of
 * its weighted tf and its document's weighted length), so no score of a block exceeds its maximum. From the kept
 * scores when they were computed under the same weighting (no decoding).
 */
export function computeBlockMaxima(
  blocks: TermBlocks,
  weighting: TermWeighting,
  lengths: DocumentLengths,
): BlockMaxima {
  const scores = new Float64Array(blocks.blockCount);
  const kept = blocks.scored;
  // Kept scores were computed for this generation's statistics and their title weight, as the dense path uses them.
  if (kept !== null && kept.w === weighting.w) {
    let at = 0;
    for (let b = 0; b < blocks.blockCount; b++) {
      let max = 0;
      for (const end = at + blocks.count[b]; at < end; at++) if (kept.scores[at] > max) max = kept.scores[at];
      scores[b] = max;
    }
    return { weighting, scores };
  }
  const { title, body } = lengths;
  const { w } = weighting;
  for (let b = 0; b < blocks.blockCount; b++) {
    const size = decodeBlock(blocks, b, blockDocs, blockTitles, blockBodies);
    let max = 0;
    for (let i = 0; i < size; i++) {
      const doc = blockDocs[i];
      const score = bm25(weighting, w * blockTitles[i] + blockBodies[i], w * title[doc] + body[doc]);
      if (score > max) max = score;
    }
    scores[b] = max;
  }
  return { weighting, scores };
}

/** The term's maxima if they were computed under `weighting`, else null (the ranker then bounds by headers). */
export function maximaUnder(blocks: TermBlocks, weighting: TermWeighting): Float64Array | null {
  const maxima = blocks.maxima;
  return maxima !== null && sameWeighting(maxima.weighting, weighting) ? maxima.scores : null;
}

export function sameWeighting(a: TermWeighting, b: TermWeighting): boolean {
  return a.idf === b.idf && a.c0 === b.c0 && a.c1 === b.c1 && a.w === b.w;
}
