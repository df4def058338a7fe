/**
 * HNSW settings compared on the same vectors (scale-vectors.bench.ts): each setting's graph quality
 * (ann-quality.ts) on one vector set, as bench rows; and the graph-only run.
 */
import { DEFAULT_ANN } from '../../src/infrastructure/vectors/ann-graph';
import type { BenchRow } from '../table';
import { annQuality, clusteredVectors, exactTop, type AnnSetting } from './ann-quality';
import { TextEmbedding } from './text-embedding';
import { TopicalText } from './topical-text';

/** HNSW settings compared on the same vectors: the defaults (DEFAULT_ANN) first. */
const SETTINGS: AnnSetting[] = [
  {
    connectivity: DEFAULT_ANN.connectivity,
    expansionAdd: DEFAULT_ANN.expansionAdd,
    expansionSearch: DEFAULT_ANN.expansionSearch,
  },
  ...[
    { connectivity: 16, expansionAdd: 128, expansionSearch: 256 },
    { connectivity: 32, expansionAdd: 256, expansionSearch: 512 },
  ].filter(
    (s) =>
      s.connectivity !== DEFAULT_ANN.connectivity ||
      s.expansionAdd !== DEFAULT_ANN.expansionAdd ||
      s.expansionSearch !== DEFAULT_ANN.expansionSearch,
  ),
];

/** Each setting's graph quality on one vector set (ann-quality.ts), as rows. */
export function settingRows(
  set: string,
  vectors: Float32Array,
  queries: Float32Array,
  dims: number,
  topical: boolean,
): BenchRow[] {
  process.stderr.write(`scale-vectors: exact top 100 of ${set}…\n`);
  const exact = exactTop(vectors, queries, dims);
  return SETTINGS.flatMap((setting) => {
    const name = `M${setting.connectivity}/efc${setting.expansionAdd}/efs${setting.expansionSearch}`;
    process.stderr.write(`scale-vectors: ${set}, ${name}…\n`);
    const quality = annQuality(vectors, queries, dims, exact, setting, DEFAULT_ANN.quantization);
    return [
      {
        benchmark: `graph ${name}, ${set}: recall@10`,
        value: quality.recallAt10,
        unit: '',
        ...(topical ? { target: '>= 0.95', ok: quality.recallAt10 >= 0.95 } : {}),
        decimals: 4,
      },
      { benchmark: `  ${name}, ${set}: recall@100`, value: quality.recallAt100, unit: '', decimals: 4 },
      {
        benchmark: `  ${name}, ${set}: top 10 within 1% of the exact 10th distance`,
        value: quality.within1PercentOf10th,
        unit: '',
        decimals: 4,
      },
      { benchmark: `  ${name}, ${set}: build (all cores)`, value: quality.buildS, unit: 's' },
      {
        benchmark: `  ${name}, ${set}: search p50, k 100, in process`,
        value: quality.searchP50Ms,
        unit: 'ms',
        decimals: 2,
      },
    ];
  });
}

/**
 * The graph alone (CAIRN_BENCH_VECTOR_GRAPH_ONLY=1): topical vectors embedded in this process (as the embedding
 * server would) at a million chunks' density (2,000 topics per million: fewer topics for fewer chunks), and a
 * clustered set of as many, each against every setting; no store, no HTTP.
 */
/**
 * A clustered set of `chunks` vectors and `queryCount` queries drawn from the same mixture, each its own array
 * (usearch's exact search reads a query matrix from the start of its buffer: a subarray's offset is lost).
 */
export function clusteredSet(
  chunks: number,
  dims: number,
  queryCount: number,
): { vectors: Float32Array; queries: Float32Array } {
  const all = clusteredVectors(chunks + queryCount, dims);
  return { vectors: all.slice(0, chunks * dims), queries: all.slice(chunks * dims) };
}

export function graphOnly(chunks: number, dims: number, queryCount: number): BenchRow[] {
  const label = `${(chunks / 1000).toLocaleString('en-US')}k × ${dims}`;
  // CAIRN_BENCH_VECTOR_SETS: which sets (default both).
  const sets = (process.env.CAIRN_BENCH_VECTOR_SETS ?? 'topical,clustered').split(',');
  const rows: BenchRow[] = [];
  if (sets.includes('topical')) {
    const text = new TopicalText(Math.max(1, Math.round((2000 * chunks) / 1_000_000)));
    const embedding = new TextEmbedding(dims, text.meaning);
    process.stderr.write(`scale-vectors: embedding ${label} topical chunks…\n`);
    const topical = new Float32Array(chunks * dims);
    for (let n = 0; n < chunks; n++) topical.set(embedding.embed(text.paragraph()), n * dims);
    const queries = new Float32Array(queryCount * dims);
    for (let q = 0; q < queryCount; q++) queries.set(embedding.embed(text.query()), q * dims);
    rows.push(...settingRows(`topical ${label} (1M density)`, topical, queries, dims, true));
  }
  if (sets.includes('clustered')) {
    const clustered = clusteredSet(chunks, dims, queryCount);
    rows.push(...settingRows(`clustered ${label}`, clustered.vectors, clustered.queries, dims, false));
  }
  return rows;
}
