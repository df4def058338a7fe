/**
 * BEIR files and the trec_eval measures eval:retrieval reports. Kept apart from the run so that the measures
 * have unit tests of their own (test/unit/bench/retrieval-metrics.spec.ts).
 */
import { readFileSync } from 'node:fs';

/** query id → (document id → relevance grade). */
export type Qrels = Map<string, Map<string, number>>;

export function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** A BEIR qrels TSV: a header line, then `query-id  corpus-id  score`. */
export function parseQrels(tsv: string): Qrels {
  const qrels: Qrels = new Map();
  const lines = tsv.trim().split('\n').slice(1);
  for (const line of lines) {
    const [query, doc, score] = line.trim().split('\t');
    if (query === undefined || doc === undefined || score === undefined || !Number.isFinite(Number(score))) {
      throw new Error(`malformed qrels line: ${JSON.stringify(line)}`);
    }
    if (!qrels.has(query)) qrels.set(query, new Map());
    qrels.get(query)?.set(doc, Number(score));
  }
  return qrels;
}

/** nDCG@k (trec_eval: gain = relevance grade, discount log2(rank + 1), ideal from the query's judgements). */
export function ndcgAt(k: number, ranked: readonly string[], judged: ReadonlyMap<string, number>): number {
  const dcg = ranked.slice(0, k).reduce((sum, doc, i) => sum + (judged.get(doc) ?? 0) / Math.log2(i + 2), 0);
  const ideal = [...judged.values()]
    .filter((grade) => grade > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, grade, i) => sum + grade / Math.log2(i + 2), 0);
  return ideal > 0 ? dcg / ideal : 0;
}

/** Recall@k: the share of the query's relevant documents among the first k results. */
export function recallAt(k: number, ranked: readonly string[], judged: ReadonlyMap<string, number>): number {
  const relevant = [...judged].filter(([, grade]) => grade > 0).map(([doc]) => doc);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((doc) => top.has(doc)).length / relevant.length;
}
