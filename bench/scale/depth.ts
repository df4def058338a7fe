/**
 * Deep against shallow searches over HTTP, interleaved: the same queries, each sent with limit 10 and with limit
 * 100 back to back (the order alternating), one request at a time (one connection), so both see the same load. Each shape's latency
 * percentiles and the ratio of the p50s, measured in the same run.
 */
import { httpLoadInOrder, percentile } from '../http-load';
import type { BenchRow } from '../table';

export const SEARCH_PATH = '/app/api/tool-connectors/v1/memory/search';
export const SHALLOW_LIMIT = 10;
export const DEEP_LIMIT = 100;
/** Target: a limit-100 search p50 at most this many times a limit-10 one. */
export const DEEP_RATIO_TARGET = 1.5;

export interface DepthLatencies {
  /** Ascending, ms. */
  shallow: number[];
  deep: number[];
}

export function searchRequest(token: string, query: string, limit: number) {
  return {
    method: 'POST' as const,
    path: SEARCH_PATH,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, limit }),
  };
}

/**
 * `warmupS` seconds not counted, then `durationS` seconds of [q1 limit 10, q1 limit 100, q2 limit 100, q2 limit 10,
 * …] on one connection; response n answers request n modulo the list.
 */
export async function interleavedDepth(
  baseUrl: string,
  token: string,
  queries: readonly string[],
  durationS: number,
  warmupS: number,
): Promise<DepthLatencies> {
  // Each query with both limits, back to back; which goes first alternates from query to query, so neither shape
  // always finds the query's postings and rows freshly cached by the other.
  const limits = queries.flatMap((_, n) =>
    n % 2 === 0 ? [SHALLOW_LIMIT, DEEP_LIMIT] : [DEEP_LIMIT, SHALLOW_LIMIT],
  );
  const requests = limits.map((limit, n) => searchRequest(token, queries[n >> 1], limit));
  const run = (seconds: number) =>
    httpLoadInOrder({ url: baseUrl, connections: 1, durationS: seconds, requests });
  if (warmupS > 0) await run(warmupS);
  const load = await run(durationS);
  if (load.failures > 0) throw new Error(`${load.failures} failed search requests`);
  const shallow: number[] = [];
  const deep: number[] = [];
  load.latencies.forEach((ms, n) => (limits[n % limits.length] === SHALLOW_LIMIT ? shallow : deep).push(ms));
  const ascending = (a: number, b: number): number => a - b;
  return { shallow: shallow.sort(ascending), deep: deep.sort(ascending) };
}

/**
 * p50/p99 of each shape and the p50 ratio. `what` names the corpus; `targets`: the limit-10 p50 target (ms) and
 * whether the ratio is held to DEEP_RATIO_TARGET (default: yes).
 */
export function depthRows(
  what: string,
  latencies: DepthLatencies,
  targets: { p50?: number; ratio?: boolean } = {},
): BenchRow[] {
  const p50Target = targets.p50;
  const shallowP50 = percentile(latencies.shallow, 0.5);
  const deepP50 = percentile(latencies.deep, 0.5);
  const ratio = deepP50 / shallowP50;
  const p50Row = (limit: number, value: number): BenchRow => ({
    benchmark: `HTTP search p50, limit ${limit} (${what}, interleaved, 1 connection)`,
    value,
    unit: 'ms',
    ...(p50Target !== undefined && limit === SHALLOW_LIMIT
      ? { target: `<= ${p50Target}`, ok: value <= p50Target }
      : {}),
  });
  return [
    p50Row(SHALLOW_LIMIT, shallowP50),
    {
      benchmark: `HTTP search p99, limit ${SHALLOW_LIMIT} (${what})`,
      value: percentile(latencies.shallow, 0.99),
      unit: 'ms',
    },
    p50Row(DEEP_LIMIT, deepP50),
    {
      benchmark: `HTTP search p99, limit ${DEEP_LIMIT} (${what})`,
      value: percentile(latencies.deep, 0.99),
      unit: 'ms',
    },
    {
      benchmark: `limit ${DEEP_LIMIT} p50 / limit ${SHALLOW_LIMIT} p50 (${what}, same run)`,
      value: ratio,
      unit: '×',
      ...(targets.ratio === false
        ? {}
        : { target: `<= ${DEEP_RATIO_TARGET}`, ok: ratio <= DEEP_RATIO_TARGET }),
      decimals: 2,
    },
  ];
}
