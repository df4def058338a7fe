/**
 * Cairn as its own process for the HTTP benchmarks: `node <compiled src/main.js>` on 127.0.0.1 over a data
 * directory, as `npm start` runs it (with `env`, e.g. CAIRN_HTTP_WORKERS). Resolves once GET /health answers.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { BENCH_RATE_LIMITS } from './bench-rate-limits';

export interface BenchServerProcess {
  baseUrl: string;
  /** The started process (with CAIRN_HTTP_WORKERS > 1, the supervisor of the workers). */
  pid: number;
  /** SIGTERM (graceful shutdown of every worker), SIGKILL after 15 s; resolves once the process is gone. */
  stop(): Promise<void>;
}

/** The compiled entry point next to this file's compiled directory (dist-bench/src/main.js). */
const MAIN_JS = join(__dirname, '..', 'src', 'main.js');
const READY_TIMEOUT_MS = 60_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

export async function startServerProcess(
  dataDir: string,
  env: Record<string, string>,
): Promise<BenchServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN_JS], {
    env: {
      ...process.env,
      ...BENCH_RATE_LIMITS,
      ...env,
      CAIRN_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString('utf8')).slice(-10_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let ended = false;
  void exited.then(() => (ended = true));
  const stop = async (): Promise<void> => {
    if (ended) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (ended) throw new Error(`the server process exited before it was ready:\n${log}`);
    try {
      const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.status === 200) return { baseUrl, pid: child.pid ?? 0, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server process did not answer /health in ${READY_TIMEOUT_MS} ms:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
