/**
 * BM25 scoring of the embedded index, with parameters we choose (SQLite FTS5's bm25() fixes k1 = 1.2,
 * b = 0.75). Both adapters use these parameters (Elasticsearch through its index similarity settings).
 *
 * Title and body are scored as one field, BM25F style (Robertson & Zaragoza 2009, "simple BM25F"), with the
 * title weighted `w`: tf = w·tf_title + tf_body, length = w·length_title + length_body, average length over the
 * organization's documents likewise. With w = 1 this is exactly BM25 over the title and body concatenated —
 * Anserini's "flat" BEIR configuration. Per term: idf · tf / (tf + k1 · (1 − b + b · length / avgLength)),
 * idf = ln(1 + (N − df + 0.5) / (df + 0.5)) — Lucene's BM25Similarity (no (k1 + 1) factor, which changes no
 * ranking). N, df and the lengths are the organization's own: one tenant's documents never move another's scores.
 * A term repeated in the query counts that many times (as in Lucene's bag-of-words query). A document's score is
 * the sum of its terms' scores, added in query order (max-score.ts ranks without adding up every document).
 */

/** Anserini's BEIR regression parameters (Kamphuis et al. 2020; Thakur et al. 2021). */
export const BM25_K1 = 0.9;
export const BM25_B = 0.4;

export interface CollectionStats {
  documents: number;
  titleTokens: number;
  bodyTokens: number;
}

/** What a term's score in a document depends on besides the document: score = idf · tf / (tf + c0 + c1 · length). */
export interface TermWeighting {
  idf: number;
  c0: number;
  c1: number;
  /** The title weight. */
  w: number;
}

export function termWeighting(df: number, stats: CollectionStats, titleBoost: number): TermWeighting {
  const n = Math.max(stats.documents, df);
  const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const w = titleBoost;
  const total = w * stats.titleTokens + stats.bodyTokens;
  const avgLength = stats.documents > 0 && total > 0 ? total / stats.documents : 1;
  return { idf, c0: BM25_K1 * (1 - BM25_B), c1: (BM25_K1 * BM25_B) / avgLength, w };
}

/**
 * A term's score in a document: `tf` and `length` weighted (w · title + body). Every score of a query is computed
 * by this one expression, so equal inputs give equal floating-point numbers.
 */
export function bm25(weighting: TermWeighting, tf: number, length: number): number {
  const { idf, c0, c1 } = weighting;
  return tf === 0 ? 0 : (idf * tf) / (tf + c0 + c1 * length);
}
