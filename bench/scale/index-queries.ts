/**
 * The embedded index's own query time at scale, in a process of its own (indexQueryRowsInChild; the scale bench's
 * process keeps what ingestion left on its heap, see index-queries.child.ts) over the data directory's SQLite file
 * (read only, no server): each synthetic query as the memory search handler asks it (its filters, the default title
 * weight, collapsed by item with at most 10 chunks each) for 10 and 100 items, as a limit-10 and a limit-100
 * search do (without usage reports: with them a search may ask again for more).
 *
 * - Cold: every query on a fresh SqliteSearchIndex (no posting cache, no row cache); the organization's document
 *   lengths are read before the clock starts (a process reads them once per index generation). Cold means
 *   Cairn's caches: one pass of every query, not timed, comes first, so that the file's pages they read are in
 *   the operating system's cache for both depths alike (in the first 1M run, without it, the pass that came
 *   first measured a mean of 30.1 ms and the deeper pass after it 19.5 ms).
 * - Warm: one index, every query with both depths back to back, the order alternating; a round not counted, then
 *   the p50 of two.
 */
import { join } from 'node:path';
import { DEFAULT_SEARCH_TITLE_BOOST } from '../../src/config/config';
import { SEARCH_COLLAPSE_FIELD, type SearchFilter } from '../../src/infrastructure/search/search-index.port';
import { SqliteSearchIndex } from '../../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';
import { percentile } from '../http-load';
import { askChild } from '../child-request';
import type { BenchRow } from '../table';
import type { IndexQueriesRequest } from './index-queries.child';

/** Items a limit-10 and a limit-100 memory search ask the index for. */
const DEPTHS = [10, 100] as const;
const WARM_ROUNDS = 2;
/** Target: the cold mean of a limit-10 search's ask, in ms (issue 32). */
export const COLD_LIMIT10_TARGET_MS = 3;

export async function indexQueryRows(
  sqliteFile: string,
  organizationId: number,
  queries: readonly string[],
  label: string,
): Promise<BenchRow[]> {
  const db = openSqlite({ path: sqliteFile, readonly: true });
  try {
    const filters: Record<string, SearchFilter> = { expires_at_ms: { gt: Date.now(), or_null: true } };
    const anyOf: Array<Record<string, SearchFilter>> = [
      { visibility: 'organization_internal' },
      { visibility: 'tool_private', owner_client_key: 'bench-no-such-client' },
    ];
    const search = (index: SqliteSearchIndex, text: string, limit: number) =>
      index.search({
        organization_id: String(organizationId),
        text,
        filters,
        any_of: anyOf,
        limit,
        title_boost: DEFAULT_SEARCH_TITLE_BOOST,
        collapse: { field: SEARCH_COLLAPSE_FIELD, max_members: 10 },
      });
    const timed = async (run: () => Promise<unknown>): Promise<number> => {
      const started = performance.now();
      await run();
      return performance.now() - started;
    };
    const rows: BenchRow[] = [];
    const fresh = async (text: string, depth: number): Promise<number> => {
      const index = new SqliteSearchIndex(db);
      try {
        // Reads the lengths (and nothing of the query's terms: no document has this word).
        await search(index, 'qqqqzzzzxxxx', depth);
        return await timed(() => search(index, text, depth));
      } finally {
        await index.close();
      }
    };
    for (const text of queries) await fresh(text, DEPTHS[DEPTHS.length - 1]);
    for (const depth of DEPTHS) {
      const times: number[] = [];
      for (const text of queries) times.push(await fresh(text, depth));
      const mean = times.reduce((a, b) => a + b, 0) / times.length;
      rows.push({
        benchmark: `index query in process, cold, ${depth} items, mean (${label})`,
        value: mean,
        unit: 'ms',
        ...(depth === 10
          ? { target: `<= ${COLD_LIMIT10_TARGET_MS}`, ok: mean <= COLD_LIMIT10_TARGET_MS }
          : {}),
      });
    }
    const index = new SqliteSearchIndex(db);
    const warm: Record<number, number[]> = { 10: [], 100: [] };
    for (let round = 0; round <= WARM_ROUNDS; round++) {
      for (let q = 0; q < queries.length; q++) {
        const order = q % 2 === 0 ? DEPTHS : [...DEPTHS].reverse();
        for (const depth of order) {
          const ms = await timed(() => search(index, queries[q], depth));
          if (round > 0) warm[depth].push(ms);
        }
      }
    }
    await index.close();
    for (const depth of DEPTHS) {
      const sorted = warm[depth].sort((a, b) => a - b);
      const what = `index query in process, warm, ${depth} items`;
      rows.push(
        { benchmark: `${what}, p50 (${label})`, value: percentile(sorted, 0.5), unit: 'ms' },
        { benchmark: `${what}, p99 (${label})`, value: percentile(sorted, 0.99), unit: 'ms' },
      );
    }
    return rows;
  } finally {
    db.close();
  }
}

/** indexQueryRows in a fresh child process (index-queries.child.ts: why). */
export async function indexQueryRowsInChild(request: IndexQueriesRequest): Promise<BenchRow[]> {
  return askChild<BenchRow[]>(join(__dirname, 'index-queries.child.js'), request, 'index query');
}
