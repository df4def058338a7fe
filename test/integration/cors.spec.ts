import { loadConfig } from '../../src/config/config';
import { publishClient } from '../support/client-page-fixtures';
import { createConnector, createOrganization } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

const SEARCH = '/app/api/tool-connectors/v1/memory/search';
const ELSEWHERE = 'https://elsewhere.example';
const APP = 'https://app.example.com';

const preflight = (baseUrl: string, path: string, origin: string, method = 'GET'): Promise<Response> =>
  fetch(`${baseUrl}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': method === 'POST' ? 'authorization,content-type' : '',
    },
  });

/** CORS: the public directory and pages for any origin (GET, no credentials); the connector API only when listed. */
describe('CORS', () => {
  describe('default (CAIRN_CORS_ORIGINS unset)', () => {
    let t: TestApp;
    let token: string;
    beforeAll(async () => {
      t = await startTestApp();
      await publishClient(t.commands, { name: 'Harbor Cafe', slug: 'harbor-cafe' });
      const { organization_id } = await createOrganization(t.commands, 'Cors');
      ({ token } = await createConnector(t.commands, organization_id, ['memory_search']));
    });
    afterAll(() => t.close());

    it.each([
      '/api/cairn-client-pages',
      '/api/cairn-client-pages/harbor-cafe',
      '/clients',
      '/clients/harbor-cafe',
    ])('GET %s from another origin: allowed for any origin, without credentials', async (path) => {
      const response = await fetch(`${t.baseUrl}${path}`, { headers: { origin: ELSEWHERE } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('access-control-expose-headers')).toBe('ETag, Last-Modified, Retry-After');
    });

    it('answers the directory’s preflight: 204, any origin, GET and HEAD', async () => {
      const response = await preflight(t.baseUrl, '/api/cairn-client-pages?q=cafe', ELSEWHERE);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
      expect(response.headers.get('access-control-max-age')).toBe('86400');
    });

    it('the connector API is not CORS-open: no CORS headers, and its preflight is a 404', async () => {
      const response = await fetch(`${t.baseUrl}${SEARCH}`, {
        method: 'POST',
        headers: { origin: ELSEWHERE, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'x' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      // Its answer does not depend on the origin, so caches need not key on it.
      expect(response.headers.get('vary')).toBeNull();
      const denied = await preflight(t.baseUrl, SEARCH, ELSEWHERE, 'POST');
      expect(denied.status).toBe(404);
      expect(denied.headers.get('access-control-allow-origin')).toBeNull();
      expect(await denied.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });
      const mcp = await preflight(t.baseUrl, '/mcp', ELSEWHERE, 'POST');
      expect(mcp.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('CAIRN_CORS_ORIGINS lists an origin', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ CAIRN_CORS_ORIGINS: `${APP}, http://localhost:5173` });
    });
    afterAll(() => t.close());

    it('a listed origin gets the connector API’s preflight and headers; others do not', async () => {
      const allowed = await preflight(t.baseUrl, SEARCH, APP, 'POST');
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(APP);
      expect(allowed.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
      expect(allowed.headers.get('access-control-allow-headers')).toContain('authorization');
      expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
      expect(allowed.headers.get('vary')).toContain('Origin');
      const refused = await fetch(`${t.baseUrl}${SEARCH}`, {
        method: 'POST',
        headers: { origin: ELSEWHERE },
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      const local = await fetch(`${t.baseUrl}${SEARCH}`, {
        method: 'POST',
        headers: { origin: 'http://localhost:5173' },
      });
      expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(local.headers.get('access-control-expose-headers')).toBe(
        'Retry-After, WWW-Authenticate, X-Request-Id, Mcp-Session-Id',
      );
    });

    it('answers the MCP endpoint’s preflight for a listed origin, and varies its answers by origin', async () => {
      const allowed = await preflight(t.baseUrl, '/mcp', APP, 'POST');
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(APP);
      expect(allowed.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
      const other = await preflight(t.baseUrl, '/mcp', ELSEWHERE, 'POST');
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const plain = await fetch(`${t.baseUrl}${SEARCH}`, { method: 'POST' });
      expect(plain.status).toBe(401);
      expect(plain.headers.get('vary')).toContain('Origin');
    });

    it('MCP answers (POST, GET stream, DELETE, errors) carry the CORS headers and X-Request-Id', async () => {
      const { organization_id } = await createOrganization(t.commands, 'Cors MCP');
      const { token } = await createConnector(t.commands, organization_id, ['memory_search']);
      const mcp = (method: string, extra: Record<string, string>, body?: unknown, signal?: AbortSignal) =>
        fetch(`${t.baseUrl}/mcp`, {
          method,
          headers: {
            origin: APP,
            authorization: `Bearer ${token}`,
            accept: 'application/json, text/event-stream',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...extra,
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          ...(signal ? { signal } : {}),
        });
      const expectCors = (response: Response): void => {
        expect(response.headers.get('access-control-allow-origin')).toBe(APP);
        expect(response.headers.get('vary')).toContain('Origin');
        expect(response.headers.get('access-control-expose-headers')).toBe(
          'Retry-After, WWW-Authenticate, X-Request-Id, Mcp-Session-Id',
        );
      };
      const list = await mcp(
        'POST',
        { 'x-request-id': 'mcp-list-1' },
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      );
      expect(list.status).toBe(200);
      expectCors(list);
      expect(list.headers.get('x-request-id')).toBe('mcp-list-1');
      expect(await list.json()).toMatchObject({
        result: { tools: expect.arrayContaining([expect.objectContaining({ name: 'memory_search' })]) },
      });

      const abort = new AbortController();
      const stream = await mcp('GET', { accept: 'text/event-stream' }, undefined, abort.signal);
      expect(stream.status).toBe(200);
      expectCors(stream);
      expect(stream.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      abort.abort();

      const removed = await mcp('DELETE', {});
      expectCors(removed);
      expect(removed.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      // An error the SDK writes (a POST that accepts no event stream: 406) and one Cairn writes (no token: 401).
      const unacceptable = await mcp(
        'POST',
        { accept: 'application/json' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      );
      expect(unacceptable.status).toBe(406);
      expectCors(unacceptable);
      expect(unacceptable.headers.get('x-request-id')).not.toBeNull();
      const anonymous = await fetch(`${t.baseUrl}/mcp`, { method: 'POST', headers: { origin: APP } });
      expect(anonymous.status).toBe(401);
      expectCors(anonymous);
      expect(anonymous.headers.get('x-request-id')).not.toBeNull();
    });

    it('the public directory stays open to any origin', async () => {
      const response = await fetch(`${t.baseUrl}/api/cairn-client-pages`, { headers: { origin: ELSEWHERE } });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    });
  });

  it('CAIRN_CORS_ORIGINS must list http(s) origins: a path, a wildcard or another scheme is refused at start', () => {
    for (const bad of ['https://app.example.com/path', '*', 'ftp://files.example.com', 'app.example.com']) {
      expect(() => loadConfig({ CAIRN_CORS_ORIGINS: bad })).toThrow(/CAIRN_CORS_ORIGINS/);
    }
    expect(
      loadConfig({ CAIRN_CORS_ORIGINS: 'https://a.example/, http://127.0.0.1:8080' }).corsOrigins,
    ).toEqual(['https://a.example', 'http://127.0.0.1:8080']);
  });
});
