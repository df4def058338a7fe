import { createConnector, createOrganization } from '../support/fixtures';
import { ADMIN, operatorToken } from '../support/admin-fixtures';
import { ALL_MEMORY, MEMORY } from '../support/memory-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';
import { OperatorTokens } from '../../src/commands/operator-tokens/operator-tokens';
import { operatorContext } from '../../src/commands/shared/command-context';
import { streams } from '../../src/events/domain-event';
import { sha256Hex } from '../../src/commands/connectors/connector-token';

/** The admin API over real HTTP on the embedded store: who may call it, organizations, chatbots, connectors and tokens. */
describe('admin API: authorization, organizations, chatbots, connectors', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let all: string;
  let readOnly: string;
  let org: number;
  let connectorToken: string;

  beforeAll(async () => {
    t = await startTestApp();
    all = await operatorToken(t, ['all'], 'Dana');
    readOnly = await operatorToken(t, ['read'], 'Viewer');
    org = (await createOrganization(t.commands, 'Admin desk')).organization_id;
    connectorToken = (await createConnector(t.commands, org, ALL_MEMORY)).token;
  });
  afterAll(async () => t.close());

  const get = (path: string, token = all) => http(t.baseUrl, 'GET', `${ADMIN}${path}`, { token });
  const post = (path: string, body: unknown = {}, token = all) =>
    http(t.baseUrl, 'POST', `${ADMIN}${path}`, { token, body });

  describe('authorization', () => {
    it('refuses no token, a connector token, a revoked token and a token lacking the scope', async () => {
      const none = await http(t.baseUrl, 'GET', `${ADMIN}/organizations`);
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('missing_token');
      expect(none.headers.get('www-authenticate')).toContain('Bearer');

      const connector = await get('/organizations', connectorToken);
      expect(connector.status).toBe(401);
      expect(connector.body.error).toMatchObject({ code: 'invalid_token' });
      expect(connector.body.error.message).toContain('connector token');

      const garbage = await get('/organizations', 'cairn_op_short');
      expect(garbage.status).toBe(401);

      const lacking = await post('/organizations', { name: 'Nope' }, readOnly);
      expect(lacking.status).toBe(403);
      expect(lacking.body.error).toMatchObject({ code: 'missing_scope' });
      expect(lacking.body.error.details).toEqual([
        { message: 'requires organizations:write', scope: 'organizations:write' },
      ]);
      expect((await get('/organizations', readOnly)).status).toBe(200);

      const tokens = t.app.get(OperatorTokens);
      const created = await tokens.create('Temp', ['read'], operatorContext('test'));
      expect((await get('/organizations', created.token)).status).toBe(200);
      expect(await tokens.revoke(created.token_id, operatorContext('test'))).toEqual({
        token_id: created.token_id,
        changed: true,
      });
      const revoked = await get('/organizations', created.token);
      expect(revoked.status).toBe(401);
      expect(revoked.body.error.code).toBe('invalid_token');
    });

    it('never lets an operator token call the connector API', async () => {
      const res = await http(t.baseUrl, 'POST', `${MEMORY}/search`, { token: all, body: { query: 'x' } });
      expect(res.status).toBe(401);
    });

    it('stores only the SHA-256 of an operator token, with its name and scopes', async () => {
      const created = await t.app
        .get(OperatorTokens)
        .create('Eve', ['read', 'memory:write'], operatorContext('test'));
      expect(created.token).toMatch(/^cairn_op_[A-Za-z0-9_-]{43}$/);
      const events = await t.stores.eventStore.readStream(streams.operatorToken(sha256Hex(created.token)));
      expect(events.map((e) => e.type)).toEqual(['OperatorTokenIssued']);
      expect(events[0].data).toEqual({
        token_id: created.token_id,
        name: 'Eve',
        scopes: ['memory:write', 'read'],
      });
      expect(JSON.stringify(events)).not.toContain(created.token);
    });

    it.each([
      ['POST', '/organizations', 'organizations:write'],
      ['POST', '/organizations/1/chatbots', 'organizations:write'],
      ['POST', '/organizations/1/pause-agents', 'organizations:write'],
      ['POST', '/organizations/1/connectors', 'connectors:write'],
      ['POST', '/organizations/1/connectors/1/rotate-token', 'connectors:write'],
      ['POST', '/organizations/1/connectors/1/revoke-token', 'connectors:write'],
      ['POST', '/organizations/1/memory/items/1/archive', 'memory:write'],
      ['POST', '/organizations/1/memory/items/1/erase', 'memory:write'],
      ['POST', '/organizations/1/documents', 'memory:write'],
      ['POST', '/organizations/1/proposals/1/approve', 'proposals:review'],
      ['POST', '/organizations/1/proposals/1/reject', 'proposals:review'],
      ['POST', '/projections/rebuild', 'projections:rebuild'],
    ])('%s %s needs %s', async (method, path, scope) => {
      const res = await http(t.baseUrl, method, `${ADMIN}${path}`, { token: readOnly, body: {} });
      expect(res.status).toBe(403);
      expect(res.body.error.details[0].scope).toBe(scope);
    });

    it('needs read for every GET', async () => {
      const writer = await operatorToken(t, ['organizations:write']);
      for (const path of [
        '/organizations',
        `/organizations/${org}`,
        `/organizations/${org}/memory/items`,
        '/projections',
      ]) {
        const res = await get(path, writer);
        expect(res.status).toBe(403);
        expect(res.body.error.details[0].scope).toBe('read');
      }
    });
  });

  describe('organizations and chatbots', () => {
    it('creates, lists, shows, pauses and limits an organization, and validates the body', async () => {
      const created = await post('/organizations', {
        name: 'Harbor Dental',
        slug: 'harbor-dental-admin',
        website_url: 'https://harbor.example',
      });
      expect(created.status).toBe(200);
      expect(created.body.organization).toMatchObject({
        name: 'Harbor Dental',
        slug: 'harbor-dental-admin',
        website_url: 'https://harbor.example/',
        agent_activity_paused: false,
        monthly_reply_limit: null,
      });
      const id = created.body.organization.organization_id as number;
      const list = await get('/organizations');
      expect(list.body.organizations.map((o: { organization_id: number }) => o.organization_id)).toContain(
        id,
      );

      const invalid = await post('/organizations', { name: '', extra: 1 });
      expect(invalid.status).toBe(422);
      expect([...new Set(invalid.body.error.details.map((d: { field: string }) => d.field))].sort()).toEqual([
        'extra',
        'name',
      ]);
      expect((await post('/organizations', { name: 'Dup', slug: 'harbor-dental-admin' })).status).toBe(409);

      const paused = await post(`/organizations/${id}/pause-agents`);
      expect(paused.body).toEqual({
        ok: true,
        organization_id: id,
        agent_activity_paused: true,
        monthly_reply_limit: null,
        changed: true,
      });
      expect((await post(`/organizations/${id}/resume-agents`)).body.agent_activity_paused).toBe(false);
      const limited = await post(`/organizations/${id}/plan-limit`, { monthly_replies: 500 });
      expect(limited.body.monthly_reply_limit).toBe(500);
      expect((await post(`/organizations/${id}/plan-limit`, { monthly_replies: -1 })).status).toBe(422);
      expect((await get(`/organizations/${id}`)).body.organization.monthly_reply_limit).toBe(500);
      expect((await get('/organizations/999999')).status).toBe(404);
      expect((await get('/organizations/abc')).status).toBe(404);
    });

    it('creates, lists, pauses and resumes chatbots', async () => {
      const created = await post(`/organizations/${org}/chatbots`, {
        name: 'Front desk',
        allowed_domain: 'desk.example',
      });
      expect(created.status).toBe(200);
      expect(created.body.chatbot).toMatchObject({
        organization_id: org,
        name: 'Front desk',
        allowed_domain: 'desk.example',
        paused: false,
      });
      const id = created.body.chatbot.chatbot_id as number;
      expect((await post(`/organizations/${org}/chatbots`, { name: 'x', colour: 'red' })).status).toBe(422);
      expect((await post(`/organizations/${org}/chatbots/${id}/pause`)).body).toEqual({
        ok: true,
        chatbot_id: id,
        paused: true,
        changed: true,
      });
      const listed = await get(`/organizations/${org}/chatbots`);
      expect(listed.body.chatbots.find((c: { chatbot_id: number }) => c.chatbot_id === id).paused).toBe(true);
      expect((await post(`/organizations/${org}/chatbots/${id}/resume`)).body.paused).toBe(false);
      expect((await post(`/organizations/999999/chatbots`, { name: 'x' })).status).toBe(404);
    });
  });

  describe('connectors and tokens', () => {
    it('creates a connector whose token works, rotates it (old stops) and revokes it', async () => {
      const created = await post(`/organizations/${org}/connectors`, {
        name: 'Help desk',
        capabilities: ['memory_search'],
        grounding_policy: 'standard',
      });
      expect(created.status).toBe(200);
      expect(created.body.connector).toMatchObject({
        organization_id: org,
        name: 'Help desk',
        capabilities: ['memory_search'],
        grounding_policy: 'standard',
      });
      expect(created.body.connector).not.toHaveProperty('active_token_sha256');
      const id = created.body.connector.connector_id as number;
      const first = created.body.token as string;
      const self = (token: string) =>
        http(t.baseUrl, 'GET', '/app/api/tool-connectors/v1/connector', { token });
      expect((await self(first)).status).toBe(200);

      const rotated = await post(`/organizations/${org}/connectors/${id}/rotate-token`);
      expect(rotated.body).toEqual({
        ok: true,
        connector_id: id,
        token_id: expect.any(String),
        token: expect.any(String),
      });
      expect((await self(first)).status).toBe(401);
      expect((await self(rotated.body.token)).status).toBe(200);
      expect((await get(`/organizations/${org}/connectors/${id}`)).body.connector.active_token_id).toBe(
        rotated.body.token_id,
      );

      const revoked = await post(`/organizations/${org}/connectors/${id}/revoke-token`);
      expect(revoked.body).toEqual({
        ok: true,
        connector_id: id,
        revoked_token_id: rotated.body.token_id,
        changed: true,
      });
      expect((await self(rotated.body.token)).status).toBe(401);
      const listed = await get(`/organizations/${org}/connectors`);
      expect(
        listed.body.connectors.find((c: { connector_id: number }) => c.connector_id === id).active_token_id,
      ).toBeNull();

      const bad = await post(`/organizations/${org}/connectors`, { name: 'x', capabilities: ['fly'] });
      expect(bad.status).toBe(422);
      expect(
        (
          await post(`/organizations/${org}/connectors`, {
            name: 'x',
            capabilities: [],
            grounding_policy: 'loose',
          })
        ).status,
      ).toBe(422);
      expect((await get(`/organizations/${org}/connectors/999999`)).status).toBe(404);
    });
  });
});
