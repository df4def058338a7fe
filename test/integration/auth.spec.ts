import { createHash } from 'node:crypto';
import { needlesInFiles } from '../support/erasure-scan';
import { changeConnector, createConnector, createOrganization } from '../support/fixtures';
import { ProbeModule } from '../support/probe.module';
import { http, startTestApp, type TestApp } from '../support/test-app';

const SELF = '/app/api/tool-connectors/v1/connector';

describe('connector authentication and capabilities (invariants 1 and 2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({}, undefined, [ProbeModule]);
  });
  afterAll(async () => t.close());

  it('a missing token → 401 with WWW-Authenticate: Bearer', async () => {
    const res = await http(t.baseUrl, 'GET', SELF);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="cairn"');
    expect(res.body).toEqual({
      ok: false,
      error: { code: 'missing_token', message: expect.any(String), details: [] },
    });
  });

  it.each([
    ['a malformed token', 'Bearer nonsense'],
    ['a well-formed unknown token', `Bearer cairn_${'A'.repeat(43)}`],
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
  ])('%s → 401 invalid_token', async (_label, authorization) => {
    const res = await http(t.baseUrl, 'GET', SELF, { headers: { authorization } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
    expect(res.body.error.code).toBe('invalid_token');
  });

  it('a valid token resolves connector and organization; tokens are cairn_ + 256 bits', async () => {
    const org = await createOrganization(t.commands);
    const connector = await createConnector(t.commands, org.organization_id, [
      'memory_search',
      'assistant_reply',
    ]);
    expect(connector.token).toMatch(/^cairn_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(connector.token.slice(6), 'base64url')).toHaveLength(32);
    const res = await http(t.baseUrl, 'GET', SELF, { token: connector.token });
    expect(res).toMatchObject({
      status: 200,
      body: {
        ok: true,
        connector_id: connector.connector_id,
        organization_id: org.organization_id,
        client_key: connector.client_key,
        capabilities: ['assistant_reply', 'memory_search'],
        grounding_policy: 'strict',
      },
    });
  });

  it('a missing capability → 403; the organization comes from the token, never the request', async () => {
    const org = await createOrganization(t.commands);
    const limited = await createConnector(t.commands, org.organization_id, ['assistant_feedback']);
    const res = await http(t.baseUrl, 'POST', '/probe/guarded', {
      token: limited.token,
      body: { name: 'a', count: 1 },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'missing_capability',
      details: [{ capability: 'memory_search' }],
    });

    const allowed = await createConnector(t.commands, org.organization_id, ['memory_search']);
    const ok = await http(t.baseUrl, 'POST', '/probe/guarded', {
      token: allowed.token,
      body: { name: 'a', count: 1 },
      headers: { 'x-organization-id': '999' },
    });
    expect(ok).toMatchObject({ status: 200, body: { organization_id: org.organization_id } });
  });

  it('rotation: the old token stops at once, the new one works', async () => {
    const org = await createOrganization(t.commands);
    const connector = await createConnector(t.commands, org.organization_id, ['memory_search']);
    // Used first: the server remembers which connector the token belongs to; the stream still decides.
    expect((await http(t.baseUrl, 'GET', SELF, { token: connector.token })).status).toBe(200);
    const rotated = await changeConnector(t.commands, org.organization_id, connector.connector_id, {
      type: 'RotateToken',
    });
    expect(rotated.token).toMatch(/^cairn_/);
    expect(rotated.token).not.toBe(connector.token);
    expect((await http(t.baseUrl, 'GET', SELF, { token: connector.token })).status).toBe(401);
    expect((await http(t.baseUrl, 'GET', SELF, { token: rotated.token })).status).toBe(200);
  });

  it('revocation: the token stops at once', async () => {
    const org = await createOrganization(t.commands);
    const connector = await createConnector(t.commands, org.organization_id, ['memory_search']);
    expect((await http(t.baseUrl, 'GET', SELF, { token: connector.token })).status).toBe(200);
    const revoked = await changeConnector(t.commands, org.organization_id, connector.connector_id, {
      type: 'RevokeToken',
    });
    expect(revoked.revoked_token_id).toMatch(/^tok_/);
    expect((await http(t.baseUrl, 'GET', SELF, { token: connector.token })).status).toBe(401);
  });

  it('a capability removed takes effect on the next request', async () => {
    const org = await createOrganization(t.commands);
    const connector = await createConnector(t.commands, org.organization_id, ['memory_search']);
    const body = { name: 'a', count: 1 };
    expect((await http(t.baseUrl, 'POST', '/probe/guarded', { token: connector.token, body })).status).toBe(
      200,
    );
    await changeConnector(t.commands, org.organization_id, connector.connector_id, {
      type: 'SetCapabilities',
      capabilities: [],
    });
    expect((await http(t.baseUrl, 'POST', '/probe/guarded', { token: connector.token, body })).status).toBe(
      403,
    );
  });

  it('tokens are never stored in clear: only their SHA-256 is in the data files', async () => {
    const org = await createOrganization(t.commands);
    const connector = await createConnector(t.commands, org.organization_id, ['memory_search']);
    const rotated = await changeConnector(t.commands, org.organization_id, connector.connector_id, {
      type: 'RotateToken',
    });
    // Read in a child process: this one hosts the server, whose SQLite locks a close() here would drop.
    const tokens = [connector.token, rotated.token!];
    const hashes = tokens.map((token) => createHash('sha256').update(token).digest('hex'));
    const clear = [...tokens, ...tokens.map((token) => token.slice(6))];
    expect(needlesInFiles(t.dataDir, [...clear, ...hashes]).sort()).toEqual([...hashes].sort());
  });
});
