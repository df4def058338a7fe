import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cairn } from '../support/cli';
import { createConnector, createOrganization } from '../support/fixtures';
import { ingest } from '../support/memory-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

const BIN = join(__dirname, '..', '..', 'bin', 'cairn.js');

interface Proxy {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Resolves once stdout holds the JSON-RPC response with this id. */
  response: (id: number) => Promise<unknown>;
}

const proxies = new Set<ChildProcessWithoutNullStreams>();

/** `node bin/cairn.js mcp …args` as a raw child process (stdin, stdout, stderr piped). */
function startProxy(...args: string[]): Proxy {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], { stdio: 'pipe' });
  proxies.add(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => {
      proxies.delete(child);
      resolve({ code, signal, at: Date.now() });
    }),
  );
  const response = async (id: number): Promise<unknown> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const line = out
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as { id?: number })
        .find((message) => message.id === id);
      if (line) return line;
      if (Date.now() > deadline) throw new Error(`no response ${id}; stdout: ${out}; stderr: ${err}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { child, stdout: () => out, stderr: () => err, exited, response };
}

const send = (proxy: Proxy, message: object): void => {
  proxy.child.stdin.write(`${JSON.stringify(message)}\n`);
};

/** initialize + tools/list through the proxy: the upstream connection is in use when the test ends the session. */
async function listToolsThrough(proxy: Proxy): Promise<void> {
  send(proxy, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  await proxy.response(1);
  send(proxy, { jsonrpc: '2.0', method: 'notifications/initialized' });
  send(proxy, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
  expect(await proxy.response(2)).toMatchObject({ result: { tools: expect.any(Array) } });
}

/** Resolves with how long the process took to exit, or a rejection after `ms`. */
async function exitWithin(proxy: Proxy, from: number, ms: number) {
  const timer = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`still running after ${ms} ms; stderr: ${proxy.stderr()}`)),
      ms,
    ).unref(),
  );
  const exit = await Promise.race([proxy.exited, timer]);
  return { ...exit, elapsed: exit.at - from };
}

/** `npx cairn mcp --url … --token …`: a stdio MCP server (a real child process) forwarding to a running server. */
describe('cairn mcp (stdio MCP server for local AI tools)', () => {
  let t: TestApp;
  let token: string;
  let itemId: number;

  beforeAll(async () => {
    t = await startTestApp();
    const { organization_id } = await createOrganization(t.commands, 'Stdio');
    ({ token } = await createConnector(t.commands, organization_id, ['memory_search']));
    ({ memory_item_id: itemId } = await ingest(
      t.commands,
      organization_id,
      'Parking',
      'Parking is free after 18:00.',
    ));
  });
  afterAll(() => t.close());
  afterEach(async () => {
    await Promise.all(
      [...proxies].map((child) => new Promise((resolve) => child.once('exit', resolve).kill('SIGKILL'))),
    );
  });

  it('lists and calls the token’s tools through the server’s /mcp', async () => {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--url', t.baseUrl, '--token', token],
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'memory_search',
        'memory_fetch',
        'memory_report_usage',
      ]);
      const search = await client.callTool({ name: 'memory_search', arguments: { query: 'parking' } });
      expect(search.structuredContent).toMatchObject({ ok: true, results: [{ memory_item_id: itemId }] });
    } finally {
      await client.close();
    }
  });

  it('exits within a second of stdin closing (3 s bound: a loaded machine), with the upstream connection in use', async () => {
    const proxy = startProxy('--url', t.baseUrl, '--token', token);
    await listToolsThrough(proxy);
    const closedAt = Date.now();
    proxy.child.stdin.end();
    const exit = await exitWithin(proxy, closedAt, 3000);
    process.stdout.write(`cairn mcp exited ${exit.elapsed} ms after stdin closed\n`);
    expect(exit).toMatchObject({ code: 0, signal: null });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('ends on the first %s', async (signal) => {
    const proxy = startProxy('--url', t.baseUrl, '--token', token);
    await listToolsThrough(proxy);
    const sentAt = Date.now();
    proxy.child.kill(signal);
    const exit = await exitWithin(proxy, sentAt, 3000);
    process.stdout.write(`cairn mcp ended ${exit.elapsed} ms after ${signal}\n`);
    expect(exit.signal).toBe(signal);
  });

  it('a missing option is a usage_error on stderr; nothing on stdout (the protocol channel)', async () => {
    const missing = await cairn(t.dataDir, 'mcp', '--url', t.baseUrl);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(JSON.parse(missing.stderr)).toEqual({
      ok: false,
      error: {
        code: 'usage_error',
        message: 'usage: cairn mcp --url URL --token TOKEN: missing --token',
        details: [{ field: '--token', message: 'required' }],
      },
    });
  });

  it('a refused token or an unreachable server: mcp_upstream_unavailable on stderr, nothing on stdout, exit 1', async () => {
    const refused = await cairn(t.dataDir, 'mcp', '--url', t.baseUrl, '--token', `cairn_${'0'.repeat(43)}`);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(JSON.parse(refused.stderr)).toMatchObject({
      ok: false,
      error: { code: 'mcp_upstream_unavailable' },
    });
    expect(refused.stderr).toContain('invalid_token');

    const unreachable = await cairn(t.dataDir, 'mcp', '--url', 'http://127.0.0.1:1', '--token', token);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toBe('');
    expect(JSON.parse(unreachable.stderr)).toMatchObject({
      ok: false,
      error: { code: 'mcp_upstream_unavailable', message: expect.stringContaining('http://127.0.0.1:1/mcp') },
    });
  });

  it('never prints the password of a --url with user-info', async () => {
    const url = new URL(t.baseUrl);
    url.username = 'bob';
    url.password = 's3cret-pw';
    const result = await cairn(t.dataDir, 'mcp', '--url', url.href, '--token', token);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({
      ok: false,
      error: { code: 'usage_error', message: expect.stringContaining(`http://***@${url.host}/`) },
    });
    expect(result.stderr).not.toContain('s3cret-pw');
  });
});
