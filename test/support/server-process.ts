import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { cairnServers } from './openapi-validator';
import type { RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';
import { dataKeysFile, sqliteFile } from '../../src/infrastructure/stores';
import { SealingEventStore } from '../../src/infrastructure/erasure/sealing-event-store';
import { SqliteDataKeyStore } from '../../src/infrastructure/erasure/sqlite-data-key-store';
import { CONNECTOR_RATE_LIMITS_OFF } from './rate-limits';

/** The compiled server entry point (`npm run build`; `npm test` builds first). */
export const MAIN_JS = join(__dirname, '..', '..', 'dist', 'main.js');
/** The operator CLI (`node bin/cairn.js serve` starts the same server). */
export const CAIRN_BIN = join(__dirname, '..', '..', 'bin', 'cairn.js');

/** Throws a clear error when dist/ has not been built. */
export function requireBuiltServer(): void {
  if (!existsSync(MAIN_JS)) {
    throw new Error(`${MAIN_JS} is missing: run \`npm run build\` first (npm test does it)`);
  }
}

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  pid: number;
  /** Everything the process wrote to stdout and stderr so far (logs; for diagnostics and assertions). */
  output(): string;
  /**
   * Waits until `count` output lines match `pattern` (logs are written in blocks, at most 200 ms after they are
   * logged), then returns every matching line; rejects after `timeoutMs`.
   */
  waitForLines(pattern: RegExp, count?: number, timeoutMs?: number): Promise<string[]>;
  /** Output lines that show storage contention (SQLITE_BUSY, locked) or a logged error. */
  problems(): string[];
  /** Resolves with the exit code / signal once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL now (a crash: no shutdown hooks run); resolves once the process is gone. */
  crash(): Promise<void>;
  /** SIGTERM (graceful shutdown hooks), SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

/** Every child still alive, so a failing test can never leave one behind. */
const live = new Set<ChildProcess>();

// Last resort if the test process exits without calling stopAllServers (synchronous: only kill() is possible).
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Ports that are free right now (all held at once, so they are distinct), released before returning. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no TCP address');
      ports.push(address.port);
    }
    return ports;
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

async function isUp(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * Spawns `node dist/main.js` (or `node <args>`) on 127.0.0.1:`port` with `env` (over the test process's
 * environment) and resolves once GET /health answers 200. Rejects (and kills the child) when it exits first or does
 * not answer in time.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { port?: number; readyTimeoutMs?: number; args?: string[] } = {},
): Promise<ServerProcess> {
  requireBuiltServer();
  const port = options.port ?? (await freePorts(1))[0];
  const baseUrl = `http://127.0.0.1:${port}`;
  cairnServers.add(baseUrl);
  const child = spawn(process.execPath, options.args ?? [MAIN_JS], {
    env: { ...process.env, ...CONNECTOR_RATE_LIMITS_OFF, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
    child.once('error', () => {
      live.delete(child);
      resolve({ code: null, signal: null });
    });
  });
  let ended = false;
  void exited.then(() => (ended = true));

  const kill = async (signal: NodeJS.Signals): Promise<void> => {
    if (!ended) child.kill(signal);
    await exited;
  };
  const server: ServerProcess = {
    baseUrl,
    pid: child.pid ?? -1,
    output: () => log,
    async waitForLines(pattern, count = 1, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const lines = log.split('\n').filter((line) => pattern.test(line));
        if (lines.length >= count) return lines;
        if (Date.now() > deadline) {
          throw new Error(
            `${lines.length} of ${count} lines matching ${pattern} after ${timeoutMs} ms:\n${log}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    problems: () =>
      log
        .split('\n')
        .filter(
          (line) =>
            /SQLITE_BUSY|SQLITE_LOCKED|database is locked/i.test(line) ||
            /\bERROR\b/.test(line) ||
            /"level":"(?:error|fatal)"/.test(line),
        ),
    exited,
    crash: () => kill('SIGKILL'),
    async stop(graceMs = 5000) {
      if (ended) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000);
  for (;;) {
    if (ended) {
      const { code, signal } = await exited;
      throw new Error(`server on port ${port} exited (${code ?? signal}) before it was ready:\n${log}`);
    }
    if (await isUp(baseUrl)) return server;
    if (Date.now() > deadline) {
      await server.crash();
      throw new Error(`server on port ${port} did not answer GET /health in time:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `count` server processes with the same `env` (typically one CAIRN_DATA_DIR), started side by side. */
export async function startServerProcesses(
  count: number,
  env: Record<string, string>,
): Promise<ServerProcess[]> {
  const ports = await freePorts(count);
  return Promise.all(ports.map((port) => startServerProcess(env, { port })));
}

/** Kills every server process still running (SIGKILL) and waits until they are gone. For afterEach/afterAll. */
export async function stopAllServers(): Promise<void> {
  const children = [...live];
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
  live.clear();
}

/**
 * Reads the events server processes wrote to a data directory's embedded store as the application reads them: sealed
 * fields opened with the data keys (an erased subject's read as erased).
 */
export async function readOpenedEvents(dataDir: string, stream?: string): Promise<RecordedEvent[]> {
  const db = openSqlite({ path: sqliteFile(dataDir) });
  const store = new SealingEventStore(
    new SqliteEventStore(db),
    new SqliteDataKeyStore(dataKeysFile(dataDir), { bindings: db }),
  );
  try {
    return stream === undefined ? await store.readAll() : await store.readStream(stream);
  } finally {
    await store.close();
    db.close();
  }
}

/** Reads the events server processes wrote to a data directory's embedded store, as written (sealed fields sealed). */
export async function readEvents(dataDir: string, stream?: string): Promise<RecordedEvent[]> {
  const db = openSqlite({ path: sqliteFile(dataDir) });
  try {
    const store = new SqliteEventStore(db);
    const events = stream === undefined ? await store.readAll() : await store.readStream(stream);
    await store.close();
    return events;
  } finally {
    db.close();
  }
}
