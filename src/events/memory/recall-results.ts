/**
 * A recall trace's results in either layout it is stored in: a list of RecallResult (traces recorded before the
 * columns) or RecallResultColumns (recorded now). Writers use asResultColumns; readers recallResults, which
 * accepts both, so a trace reads the same whenever it was recorded.
 */
import type { RecallResult, RecallResultColumns, RecallTraceRecorded } from './recall.events';

/** Columns of `results`, in their order. */
export function asResultColumns(results: readonly RecallResult[]): RecallResultColumns {
  return {
    memory_item_ids: results.map((result) => result.memory_item_id),
    memory_source_ids: results.map((result) => result.memory_source_id),
    revisions: results.map((result) => result.revision),
    memory_chunk_ids: results.map((result) => result.memory_chunk_ids),
    scores: results.map((result) => result.score),
    methods: results.map((result) => result.method),
  };
}

/**
 * A trace's results as a list, in their order, whichever layout it was recorded in. Columns of unequal length
 * (no build writes them) are read up to the shortest, so a result is never made up of missing values.
 */
export function recallResults(
  trace: Pick<RecallTraceRecorded['data'], 'results' | 'result_columns'>,
): RecallResult[] {
  const columns = trace.result_columns;
  if (columns === undefined) return trace.results ?? [];
  const count = columnLength(columns);
  const results: RecallResult[] = [];
  for (let n = 0; n < count; n++) {
    results.push(rowOf(columns, n));
  }
  return results;
}

/**
 * The first result for `memoryItemId` of a trace, in either layout, as recallResults() would list it; undefined
 * when the trace did not return it. Reads the columns in place: a reply checks each evidence item against its
 * trace, and listing every result for each would build them all again per item.
 */
export function recallResultOf(
  trace: Pick<RecallTraceRecorded['data'], 'results' | 'result_columns'>,
  memoryItemId: number,
): RecallResult | undefined {
  const columns = trace.result_columns;
  if (columns === undefined) return (trace.results ?? []).find((r) => r.memory_item_id === memoryItemId);
  const count = columnLength(columns);
  const n = columns.memory_item_ids.indexOf(memoryItemId);
  if (n === -1 || n >= count) return undefined;
  return rowOf(columns, n);
}

/** How many whole results the columns hold: the shortest column's length (no build writes them unequal). */
function columnLength(columns: RecallResultColumns): number {
  return Math.min(
    columns.memory_item_ids.length,
    columns.memory_source_ids.length,
    columns.revisions.length,
    columns.memory_chunk_ids.length,
    columns.scores.length,
    columns.methods.length,
  );
}

/** The `n`-th result of the columns. */
function rowOf(columns: RecallResultColumns, n: number): RecallResult {
  return {
    memory_item_id: columns.memory_item_ids[n],
    memory_source_id: columns.memory_source_ids[n],
    revision: columns.revisions[n],
    memory_chunk_ids: columns.memory_chunk_ids[n],
    score: columns.scores[n],
    method: columns.methods[n],
  };
}
