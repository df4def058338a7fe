import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config/config';
import { idleConnections } from '../test/support/idle-connections';
import { startServerProcess } from './server-process';
import type { BenchRow } from './table';

const CONNECTIONS = 1000;
/** The check interval (1 s at the default) and a loaded machine. */
const SLACK_MS = 2000;

/**
 * 1,000 unauthenticated connections that never finish their headers, against the compiled server with its default
 * timeouts and 2 HTTP workers (docs/hardening.md#slow-and-idle-connections): how many are closed, and when.
 */
export async function benchIdleConnections(dir: string): Promise<BenchRow[]> {
  const headersMs = loadConfig({}).httpTimeouts.headersMs;
  const server = await startServerProcess(mkdtempSync(join(dir, 'idle-')), { CAIRN_HTTP_WORKERS: '2' });
  try {
    const port = Number(new URL(server.baseUrl).port);
    const { closedAfterMs, got408 } = await idleConnections(port, CONNECTIONS, headersMs + 3 * SLACK_MS);
    const times = closedAfterMs.filter((ms): ms is number => ms !== null);
    const slowest = times.length > 0 ? Math.max(...times) : Number.NaN;
    const fastest = times.length > 0 ? Math.min(...times) : Number.NaN;
    const started = Date.now();
    const health = await fetch(`${server.baseUrl}/health`);
    return [
      {
        benchmark: `idle connections closed (${CONNECTIONS}, headers timeout ${headersMs / 1000} s)`,
        value: times.length,
        unit: 'connections',
        target: `${CONNECTIONS}`,
        ok: times.length === CONNECTIONS,
      },
      { benchmark: 'idle connections: answered 408 before the close', value: got408, unit: 'connections' },
      { benchmark: 'idle connections: first closed after', value: fastest, unit: 'ms' },
      {
        benchmark: 'idle connections: last closed after',
        value: slowest,
        unit: 'ms',
        target: `≤ ${headersMs + SLACK_MS}`,
        ok: slowest <= headersMs + SLACK_MS,
      },
      {
        benchmark: `idle connections: /health right after (HTTP ${health.status})`,
        value: Date.now() - started,
        unit: 'ms',
        target: 'HTTP 200',
        ok: health.status === 200,
      },
    ];
  } finally {
    await server.stop();
  }
}
