import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY } from '../support/memory-fixtures';
import { CAIRN_BIN, startServerProcess, stopAllServers, type ServerProcess } from '../support/server-process';
import { makeTempDir } from '../support/temp-dir';
import { http, startTestApp } from '../support/test-app';

/** Pids of the worker processes that logged "listening … pid N" so far, in order. */
const workerPids = (server: ServerProcess): number[] =>
  [...server.output().matchAll(/listening on .*pid (\d+)\)/g)].map((match) => Number(match[1]));

/** The fields of the save (§2.3) and search (§4.1) answers this test reads. */
interface MemoryBody {
  memory_item_id?: number;
  results?: Array<{ memory_item_id: number }>;
}

/** POST JSON on a fresh connection (no keep-alive): the primary hands each new connection to the next worker. */
function postFresh(
  baseUrl: string,
  path: string,
  token: string,
  body: unknown,
): Promise<{ status: number; body: MemoryBody }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as MemoryBody }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Pids of every worker the primary forked ("worker N forked"), from its output. */
const forkedPids = (output: string): number[] =>
  [...output.matchAll(/worker (\d+) forked/g)].map((match) => Number(match[1]));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('CAIRN_HTTP_WORKERS: one port served by several worker processes', () => {
  const temp = makeTempDir('cairn-workers-');
  let token = '';

  beforeAll(async () => {
    const t = await startTestApp({}, temp.dir);
    try {
      const organizationId = (await createOrganization(t.commands, 'Workers')).organization_id;
      token = (await createConnector(t.commands, organizationId, ALL_MEMORY)).token;
    } finally {
      await t.close();
    }
  });
  afterAll(async () => {
    await stopAllServers();
    temp.cleanup();
  });

  it('serves from every worker, with read-your-writes across them, replaces a dead worker, stops them all', async () => {
    const server = await startServerProcess({ CAIRN_DATA_DIR: temp.dir, CAIRN_HTTP_WORKERS: '2' });
    await until(() => workerPids(server).length === 2, 'two workers listening');
    const [first, second] = workerPids(server);
    expect(first).not.toBe(second);
    expect(server.pid).not.toBe(first);

    // Each request on its own connection, so consecutive requests go to alternating workers: each save must be
    // found by the very next search, answered by the other worker.
    for (let n = 0; n < 6; n++) {
      const word = `wombat${n}x`;
      const saved = await postFresh(server.baseUrl, `${MEMORY}/save`, token, {
        kind: 'note',
        title: `Note ${n}`,
        content: `The ${word} invoice was resent.`,
      });
      expect(saved.status).toBe(200);
      const found = await postFresh(server.baseUrl, `${MEMORY}/search`, token, { query: word });
      expect(found.status).toBe(200);
      expect(found.body.results?.map((r) => r.memory_item_id)).toEqual([saved.body.memory_item_id]);
    }

    process.kill(first, 'SIGKILL');
    await until(() => workerPids(server).length === 3, 'a replacement worker');
    const replacement = workerPids(server)[2];
    expect([first, second]).not.toContain(replacement);
    for (let n = 0; n < 4; n++) expect((await http(server.baseUrl, 'GET', '/health')).status).toBe(200);

    await server.stop(15_000);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    await until(() => !alive(second) && !alive(replacement), 'the workers to exit', 5_000);
  }, 60_000);

  it('ends the primary with exit code 1 when the first worker cannot start (port taken)', async () => {
    // Holds the port; any connection (the readiness probe) is dropped at once.
    const blocker = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      await expect(
        startServerProcess({ CAIRN_DATA_DIR: temp.dir, CAIRN_HTTP_WORKERS: '2' }, { port }),
      ).rejects.toThrow(/exited \(1\) before it was ready[\s\S]*failed to start/);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  }, 60_000);

  it('`cairn serve` (the CLI) starts 2 workers that answer a search, and stops leaving no process', async () => {
    const server = await startServerProcess(
      { CAIRN_DATA_DIR: temp.dir, CAIRN_HTTP_WORKERS: '2' },
      { args: [CAIRN_BIN, 'serve'] },
    );
    await until(() => workerPids(server).length === 2, 'two workers listening');
    expect(server.output()).not.toContain('usage_error');
    const saved = await postFresh(server.baseUrl, `${MEMORY}/save`, token, {
      kind: 'note',
      title: 'Served by the CLI',
      content: 'The quokka refund was approved.',
    });
    expect(saved.status).toBe(200);
    for (let n = 0; n < 2; n++) {
      const found = await postFresh(server.baseUrl, `${MEMORY}/search`, token, { query: 'quokka' });
      expect(found.status).toBe(200);
      expect(found.body.results?.map((r) => r.memory_item_id)).toEqual([saved.body.memory_item_id]);
    }
    const workers = forkedPids(server.output());
    expect(workers).toHaveLength(2);
    await server.stop(15_000);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    await until(() => workers.every((pid) => !alive(pid)), 'the workers to exit', 5_000);
  }, 60_000);

  it('fails fast (exit 1, a clear error, every worker gone) when a worker does not listen in time', async () => {
    const started = Date.now();
    const failure: Error = await startServerProcess(
      { CAIRN_DATA_DIR: temp.dir, CAIRN_HTTP_WORKERS: '2', CAIRN_HTTP_WORKER_START_TIMEOUT_MS: '100' },
      { args: [CAIRN_BIN, 'serve'], readyTimeoutMs: 30_000 },
    ).then(
      () => new Error('the server started'),
      (error: Error) => error,
    );
    const elapsed = Date.now() - started;
    process.stdout.write(`start-timeout failure reported after ${elapsed} ms\n`);
    expect(failure.message).toMatch(
      /exited \(1\) before it was ready[\s\S]*cairn failed to start: worker \d+ did not listen within 100 ms/,
    );
    expect(elapsed).toBeLessThan(20_000);
    const workers = forkedPids(failure.message);
    expect(workers.length).toBeGreaterThan(0);
    await until(() => workers.every((pid) => !alive(pid)), 'the workers to exit', 5_000);
  }, 60_000);
});
