/** Reciprocal rank fusion constant (Cormack et al. 2009). */
export const RRF_K = 60;

export type RelevanceMethod = 'lexical' | 'semantic' | 'hybrid';

/**
 * Fuses two rankings of item ids: score = Σ 1/(RRF_K + rank). An item found by both is `hybrid`, by one only
 * `lexical` or `semantic`.
 */
export function fuseRankings(
  lexical: number[],
  semantic: number[],
): Array<{ id: number; score: number; method: RelevanceMethod }> {
  const fused = new Map<number, { score: number; lexical: boolean; semantic: boolean }>();
  lexical.forEach((id, rank) => {
    fused.set(id, { score: 1 / (RRF_K + rank + 1), lexical: true, semantic: false });
  });
  semantic.forEach((id, rank) => {
    const entry = fused.get(id) ?? { score: 0, lexical: false, semantic: false };
    fused.set(id, { ...entry, score: entry.score + 1 / (RRF_K + rank + 1), semantic: true });
  });
  return [...fused]
    .map(([id, entry]) => ({
      id,
      score: entry.score,
      method: (entry.lexical && entry.semantic
        ? 'hybrid'
        : entry.lexical
          ? 'lexical'
          : 'semantic') as RelevanceMethod,
    }))
    .sort((a, b) => b.score - a.score || a.id - b.id);
}
