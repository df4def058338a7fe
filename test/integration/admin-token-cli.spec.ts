import { cairn } from '../support/cli';
import { ADMIN } from '../support/admin-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';

/**
 * The first operator token comes from the server's shell: `admin-token:create` as the real CLI process on the data
 * directory of a live server; the token opens the admin API at once; `admin-token:revoke` closes it at once.
 */
describe('admin-token CLI against a live server', () => {
  jest.setTimeout(120_000);
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('creates, lists and revokes operator tokens; refuses unknown scopes', async () => {
    const created = await cairn(
      t.dataDir,
      'admin-token:create',
      '--name',
      'Dana',
      '--scopes',
      'read,proposals:review',
    );
    expect(created.code).toBe(0);
    expect(created.json).toEqual({
      ok: true,
      token_id: expect.stringMatching(/^otk_/),
      name: 'Dana',
      scopes: ['proposals:review', 'read'],
      token: expect.stringMatching(/^cairn_op_[A-Za-z0-9_-]{43}$/),
    });
    const token = created.json.token as string;
    expect((await http(t.baseUrl, 'GET', `${ADMIN}/organizations`, { token })).status).toBe(200);

    const listed = await cairn(t.dataDir, 'admin-token:list');
    expect(listed.json.tokens).toEqual([
      { token_id: created.json.token_id, name: 'Dana', scopes: ['proposals:review', 'read'], revoked: false },
    ]);
    expect(listed.stdout).not.toContain(token);

    const revoked = await cairn(t.dataDir, 'admin-token:revoke', created.json.token_id);
    expect(revoked.json).toEqual({ ok: true, token_id: created.json.token_id, changed: true });
    expect((await http(t.baseUrl, 'GET', `${ADMIN}/organizations`, { token })).status).toBe(401);

    const bad = await cairn(t.dataDir, 'admin-token:create', '--scopes', 'read,root');
    expect(bad.code).not.toBe(0);
    expect(bad.json.error).toMatchObject({ code: 'validation_failed' });
    const all = await cairn(t.dataDir, 'admin-token:create', '--scopes', 'all');
    expect(all.json.scopes).toEqual([
      'connectors:write',
      'memory:write',
      'organizations:write',
      'projections:rebuild',
      'proposals:review',
      'read',
    ]);
    expect((await cairn(t.dataDir, 'admin-token:revoke', 'otk_nope')).json.error.code).toBe(
      'operator_token_not_found',
    );
  });
});
