import { createConnector, createOrganization } from '../support/fixtures';
import { connectMcp, toolError } from '../support/mcp-client';
import { startTestApp, type TestApp } from '../support/test-app';

const ACCEPT_BOTH = 'application/json, text/event-stream';

/** Opens a `GET /mcp` event stream; the response (status, headers) once the server answered. */
function openStream(t: TestApp, token: string, signal: AbortSignal): Promise<Response> {
  return fetch(`${t.baseUrl}/mcp`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal,
  });
}

/** One JSON-RPC message POSTed to /mcp. */
function post(t: TestApp, token: string, message: unknown): Promise<Response> {
  return fetch(`${t.baseUrl}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: ACCEPT_BOTH, 'content-type': 'application/json' },
    body: JSON.stringify(message),
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

/** `GET /mcp` event streams: capped per token, closed when idle; every MCP request counts against a budget. */
describe('MCP event streams and budgets', () => {
  it('caps the open event streams per token (429 too_many_streams) and frees a slot when one closes', async () => {
    const t = await startTestApp({ CAIRN_MCP_STREAMS_PER_TOKEN: '2' });
    const aborts: AbortController[] = [];
    try {
      const { organization_id } = await createOrganization(t.commands, 'Streams');
      const { token } = await createConnector(t.commands, organization_id, ['memory_search']);
      const { token: other } = await createConnector(t.commands, organization_id, ['memory_search']);
      const open = async (as: string): Promise<Response> => {
        const abort = new AbortController();
        aborts.push(abort);
        return openStream(t, as, abort.signal);
      };
      const first = await open(token);
      const second = await open(token);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(first.headers.get('content-type')).toBe('text/event-stream');
      const third = await open(token);
      expect(third.status).toBe(429);
      expect(await third.json()).toMatchObject({
        ok: false,
        error: { code: 'too_many_streams', details: [{ limit: 2 }] },
      });
      // Another token has its own slots.
      expect((await open(other)).status).toBe(200);
      // Closing a stream frees its slot (once the server saw the close).
      aborts[0].abort();
      let again: Response | null = null;
      for (let attempt = 0; attempt < 50 && again?.status !== 200; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        again = await open(token);
      }
      expect(again?.status).toBe(200);
    } finally {
      for (const abort of aborts) abort.abort();
      await t.close();
    }
  }, 30_000);

  it('closes an event stream after CAIRN_MCP_STREAM_IDLE_MS without a message, and frees its slot', async () => {
    const t = await startTestApp({ CAIRN_MCP_STREAM_IDLE_MS: '1000', CAIRN_MCP_STREAMS_PER_TOKEN: '1' });
    const abort = new AbortController();
    try {
      const { organization_id } = await createOrganization(t.commands, 'Idle');
      const { token } = await createConnector(t.commands, organization_id, ['memory_search']);
      const started = Date.now();
      const stream = await openStream(t, token, abort.signal);
      expect(stream.status).toBe(200);
      // Resolves when the server ends the stream; gives up (and fails) after 6 s.
      const ended = await Promise.race([
        stream.text().then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 6000).unref()),
      ]);
      expect(ended).toBe(true);
      const lasted = Date.now() - started;
      expect(lasted).toBeGreaterThanOrEqual(950);
      expect(lasted).toBeLessThan(6000);
      const next = await openStream(t, token, abort.signal);
      expect(next.status).toBe(200);
    } finally {
      abort.abort();
      await t.close();
    }
  }, 30_000);

  it('initialize and tools/list count against the search budget; notifications do not', async () => {
    const t = await startTestApp({ CAIRN_RATE_LIMIT_SEARCH: '3' });
    try {
      const { organization_id } = await createOrganization(t.commands, 'Budget');
      const { token } = await createConnector(t.commands, organization_id, ['memory_search']);
      expect((await post(t, token, INITIALIZE)).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await post(t, token, INITIALIZED)).status).toBe(202);
      expect((await post(t, token, LIST)).status).toBe(200);
      expect((await post(t, token, INITIALIZE)).status).toBe(200);
      const refused = await post(t, token, LIST);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
      // The SDK's client sees the refusal, with the error body, as a failed connect.
      await expect(connectMcp(t.baseUrl, token)).rejects.toThrow(/rate_limited/);
    } finally {
      await t.close();
    }
  }, 30_000);

  it('a tools/call counts against its tool’s class only, not the search budget twice', async () => {
    const t = await startTestApp({ CAIRN_RATE_LIMIT_SEARCH: '2' });
    try {
      const { organization_id } = await createOrganization(t.commands, 'Calls');
      const { token } = await createConnector(t.commands, organization_id, ['memory_search']);
      const call = (id: number) =>
        post(t, token, {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'memory_search', arguments: { query: 'open' } },
        });
      const first = (await (await call(1)).json()) as { result: unknown };
      expect(first.result).toMatchObject({ structuredContent: { ok: true } });
      const second = (await (await call(2)).json()) as { result: unknown };
      expect(second.result).toMatchObject({ structuredContent: { ok: true } });
      const third = (await (await call(3)).json()) as { result: unknown };
      expect(toolError(third.result)).toMatchObject({ error: { code: 'rate_limited' } });
    } finally {
      await t.close();
    }
  }, 30_000);
});
