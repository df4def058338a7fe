/**
 * HTTP load for the benchmarks: autocannon in a child process (http-load.child.ts), so the load generator never
 * shares the server's event loop (it still shares the machine's cores, as a client on the same host does).
 */
import { join } from 'node:path';
import { askChild } from './child-request';
import type { HttpLoadRequest, HttpLoadResult } from './http-load.child';

/** A load's outcome: every response time (ms, ascending), the average requests/s and failed requests. */
export type HttpLoad = HttpLoadResult;

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

export async function httpLoad(request: HttpLoadRequest): Promise<HttpLoad> {
  const result = await httpLoadInOrder(request);
  return { ...result, latencies: [...result.latencies].sort((a, b) => a - b) };
}

/**
 * The load with its response times in the order the responses came: with one connection, response n answers
 * request n modulo the request list (autocannon cycles through it), so interleaved request shapes can be told apart.
 */
export async function httpLoadInOrder(request: HttpLoadRequest): Promise<HttpLoad> {
  return askChild<HttpLoadResult>(join(__dirname, 'http-load.child.js'), request, 'load');
}
