import { createConnector, createOrganization } from '../support/fixtures';
import { ADMIN, operatorToken } from '../support/admin-fixtures';
import { ALL_MEMORY, MEMORY } from '../support/memory-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';
import { csrfToken } from '../../src/http/console/console-session';

/** The console's sign-in, session cookie, CSRF and scope checks over real HTTP (the browser flow: test/browser). */
describe('admin console security', () => {
  jest.setTimeout(60_000);
  let t: TestApp;
  let reviewer: string;
  let viewer: string;
  let connectorToken: string;
  let org: number;

  beforeAll(async () => {
    t = await startTestApp();
    reviewer = await operatorToken(t, ['read', 'proposals:review'], 'Rae');
    viewer = await operatorToken(t, ['read'], 'Vic');
    org = (await createOrganization(t.commands, 'Console desk')).organization_id;
    connectorToken = (await createConnector(t.commands, org, ALL_MEMORY)).token;
  });
  afterAll(async () => t.close());

  const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${t.baseUrl}/admin/console${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  const cookie = (token: string) => ({ cookie: `cairn_console=${encodeURIComponent(token)}` });
  const propose = async (): Promise<number> =>
    (
      await http(t.baseUrl, 'POST', `${MEMORY}/proposals`, {
        token: connectorToken,
        body: {
          title: 'Gull feeding',
          content: 'Gulls are fed at dawn.',
          proposed_policy: { customer_safe_candidate: true },
        },
      })
    ).body.proposal_id;
  const status = async (id: number) =>
    (await http(t.baseUrl, 'GET', `${ADMIN}/organizations/${org}/proposals/${id}`, { token: reviewer })).body
      .proposal.status;

  it('sends a visitor without a session to the sign-in page', async () => {
    const res = await fetch(`${t.baseUrl}/admin/console`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/console/login');
    const login = await fetch(`${t.baseUrl}/admin/console/login`);
    expect(login.status).toBe(200);
    expect(login.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await login.text()).toContain('name="token"');
  });

  it('signs in with an operator token only, with an HttpOnly SameSite=Strict cookie', async () => {
    const refused = await form('/login', { token: connectorToken });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect(await refused.text()).toContain('connector token cannot call the admin API');

    const ok = await form('/login', { token: viewer });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/admin/console');
    expect(ok.headers.get('set-cookie')).toBe(
      `cairn_console=${encodeURIComponent(viewer)}; Path=/admin/console; HttpOnly; SameSite=Strict; Max-Age=28800`,
    );
    const home = await fetch(`${t.baseUrl}/admin/console`, { headers: cookie(viewer) });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('Console desk');
    const out = await form('/logout', {}, cookie(viewer));
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
  });

  it('refuses a review without the CSRF token, from another origin, or without the scope', async () => {
    const id = await propose();
    const path = `/orgs/${org}/proposals/${id}/approve`;
    const noCsrf = await form(path, {}, cookie(reviewer));
    expect(noCsrf.status).toBe(403);
    expect(await noCsrf.text()).toContain('stale or came from another site');
    const otherSite = await form(
      path,
      { csrf: csrfToken(reviewer) },
      { ...cookie(reviewer), origin: 'https://evil.example' },
    );
    expect(otherSite.status).toBe(403);
    const wrongCsrf = await form(path, { csrf: csrfToken(viewer) }, cookie(reviewer));
    expect(wrongCsrf.status).toBe(403);
    const noScope = await form(path, { csrf: csrfToken(viewer) }, cookie(viewer));
    expect(noScope.status).toBe(403);
    expect(await noScope.text()).toContain('lacks the scope proposals:review');
    expect(await status(id)).toBe('captured');

    const approved = await form(path, { csrf: csrfToken(reviewer), audience: 'internal' }, cookie(reviewer));
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toBe(
      `/admin/console/orgs/${org}/proposals/${id}?done=approved%20as%20internal`,
    );
    expect(await status(id)).toBe('approved');
  });

  it('rejects with a reason from the form', async () => {
    const id = await propose();
    const res = await form(
      `/orgs/${org}/proposals/${id}/reject`,
      { csrf: csrfToken(reviewer), reason: 'dup' },
      cookie(reviewer),
    );
    expect(res.status).toBe(303);
    expect(await status(id)).toBe('rejected');
  });

  it('answers a form body sent to a JSON API with 415', async () => {
    const res = await fetch(`${t.baseUrl}${ADMIN}/organizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reviewer}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=x',
    });
    expect(res.status).toBe(415);
  });
});
