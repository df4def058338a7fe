import { createConnector, createOrganization } from '../support/fixtures';
import { ADMIN, operatorToken } from '../support/admin-fixtures';
import { ALL_MEMORY, ingest, MEMORY } from '../support/memory-fixtures';
import { createReplyTenant } from '../support/reply-tenant';
import { http, startTestApp, type TestApp } from '../support/test-app';
import { OperatorTokens } from '../../src/commands/operator-tokens/operator-tokens';
import { operatorContext } from '../../src/commands/shared/command-context';
import { streams } from '../../src/events/domain-event';
import { sha256Hex } from '../../src/commands/connectors/connector-token';

/** The admin API over real HTTP on the embedded store: every route, its body fields, what is stored, who may. */
describe('admin API', () => {
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

  describe('memory', () => {
    it('ingests uploaded documents with progress, lists them with cursor pages and filters, shows revisions, archives', async () => {
      const tenant = (await createOrganization(t.commands, 'Memory desk')).organization_id;
      const started = await post(`/organizations/${tenant}/documents`, {
        documents: [
          { document_key: 'hours', title: 'Hours', content: 'Open 9 to 5.', audience: 'customer_safe' },
          { document_key: 'parking', title: 'Parking', content: 'Park behind the building.', format: 'text' },
          {
            document_key: 'prices',
            title: 'Prices',
            content: 'A cleaning costs 80 euros.',
            authority_level: 'approved_source',
          },
        ],
      });
      expect(started.status).toBe(202);
      expect(started.body.ingestion).toMatchObject({ organization_id: tenant, total: 3 });
      const ingestionPath = `/organizations/${tenant}/documents/ingestions/${started.body.ingestion.ingestion_id}`;
      let progress = (await get(ingestionPath)).body.ingestion;
      for (let i = 0; i < 200 && progress.status === 'running'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        progress = (await get(ingestionPath)).body.ingestion;
      }
      expect(progress).toMatchObject({ status: 'completed', total: 3, done: 3 });
      expect(
        progress.documents.map((d: { outcome: string; status: string }) => [d.outcome, d.status]),
      ).toEqual([
        ['ingested', 'created'],
        ['ingested', 'created'],
        ['ingested', 'created'],
      ]);
      expect(
        (await get(`/organizations/${org}/documents/ingestions/${started.body.ingestion.ingestion_id}`))
          .status,
      ).toBe(404);

      const page1 = await get(`/organizations/${tenant}/memory/items?limit=2`);
      expect(page1.body.items.map((i: { title: string }) => i.title)).toEqual(['Prices', 'Parking']);
      expect(page1.body.total).toBe(3);
      expect(page1.body.items[0]).toMatchObject({ authority_level: 'approved_source', audience: 'internal' });
      const page2 = await get(
        `/organizations/${tenant}/memory/items?limit=2&cursor=${page1.body.next_cursor}`,
      );
      expect(page2.body.items.map((i: { title: string }) => i.title)).toEqual(['Hours']);
      expect(page2.body.next_cursor).toBeNull();
      const safe = await get(`/organizations/${tenant}/memory/items?audience=customer_safe`);
      expect(safe.body.items.map((i: { title: string }) => i.title)).toEqual(['Hours']);
      expect(
        (await get(`/organizations/${tenant}/memory/items?q=park`)).body.items.map(
          (i: { title: string }) => i.title,
        ),
      ).toEqual(['Parking']);
      const bad = await get(`/organizations/${tenant}/memory/items?limit=0&audience=everyone`);
      expect(bad.status).toBe(422);
      expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'audience',
        'limit',
      ]);

      // A second upload of the same key revises the item: two revisions, newest first.
      const hoursId = page2.body.items[0].memory_item_id as number;
      const again = await post(`/organizations/${tenant}/documents`, {
        documents: [{ document_key: 'hours', title: 'Hours', content: 'Open 8 to 6.' }],
      });
      const againPath = `/organizations/${tenant}/documents/ingestions/${again.body.ingestion.ingestion_id}`;
      for (let i = 0; i < 200 && (await get(againPath)).body.ingestion.status === 'running'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const shown = await get(`/organizations/${tenant}/memory/items/${hoursId}`);
      expect(shown.status).toBe(200);
      expect(shown.body.item).toMatchObject({
        memory_item_id: hoursId,
        content: 'Open 8 to 6.',
        revision: 2,
      });
      expect(
        shown.body.revisions.map((r: { revision: number; content: string; actor: string }) => [
          r.revision,
          r.content,
          r.actor,
        ]),
      ).toEqual([
        [2, 'Open 8 to 6.', 'operator:Dana'],
        [1, 'Open 9 to 5.', 'operator:Dana'],
      ]);

      const archived = await post(`/organizations/${tenant}/memory/items/${hoursId}/archive`);
      expect(archived.body).toEqual({ ok: true, memory_item_id: hoursId, archived: true, changed: true });
      expect((await post(`/organizations/${tenant}/memory/items/${hoursId}/archive`)).body.changed).toBe(
        false,
      );
      const archivedList = await get(`/organizations/${tenant}/memory/items?lifecycle_status=archived`);
      expect(archivedList.body.items.map((i: { memory_item_id: number }) => i.memory_item_id)).toEqual([
        hoursId,
      ]);
      expect((await get(`/organizations/${org}/memory/items/${hoursId}`)).status).toBe(404);

      const invalid = await post(`/organizations/${tenant}/documents`, { documents: [] });
      expect(invalid.status).toBe(422);
      const missing = await post(`/organizations/${tenant}/documents`, {
        documents: [{ document_key: 'k', title: 'T' }],
      });
      expect(missing.status).toBe(422);
      expect(missing.body.error.details[0].field).toBe('documents.0.content');
    });
  });

  describe('proposals', () => {
    const propose = async (title: string, content: string) => {
      const res = await http(t.baseUrl, 'POST', `${MEMORY}/proposals`, {
        token: connectorToken,
        body: { title, content, proposed_policy: { customer_safe_candidate: true } },
      });
      expect(res.status).toBe(200);
      return res.body.proposal_id as number;
    };

    it('lists, shows a diff and the approval plan, approves with a policy override, rejects with a reason', async () => {
      const keep = await propose('Pelican feeding', 'Pelicans are fed at noon.');
      const drop = await propose('Pelican night', 'Pelicans are fed at midnight.');
      const listed = await get(`/organizations/${org}/proposals?status=captured`);
      expect(listed.body.proposals.map((p: { proposal_id: number }) => p.proposal_id)).toEqual(
        expect.arrayContaining([keep, drop]),
      );
      expect((await get(`/organizations/${org}/proposals?status=maybe`)).status).toBe(422);

      const shown = await get(`/organizations/${org}/proposals/${keep}?audience=internal`);
      expect(shown.body.diff).toEqual({
        old_text: '',
        new_text: 'Pelicans are fed at noon.',
        lines: ['+ Pelicans are fed at noon.'],
      });
      expect(shown.body.approval).toMatchObject({
        options: { rebase: false, audience: 'internal' },
        policy: { applied: { audience: 'internal' } },
        refused: null,
      });

      const approved = await post(`/organizations/${org}/proposals/${keep}/approve`, {
        audience: 'internal',
      });
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({
        ok: true,
        proposal_id: keep,
        status: 'approved',
        changed: true,
        policy: { override: 'internal', applied: { audience: 'internal' } },
      });
      const item = await get(`/organizations/${org}/memory/items/${approved.body.memory_item_id}`);
      expect(item.body.item).toMatchObject({ audience: 'internal', content: 'Pelicans are fed at noon.' });

      expect(
        (await post(`/organizations/${org}/proposals/${drop}/approve`, { audience: 'public' })).status,
      ).toBe(422);
      const rejected = await post(`/organizations/${org}/proposals/${drop}/reject`, { reason: 'wrong time' });
      expect(rejected.body).toEqual({
        ok: true,
        proposal_id: drop,
        status: 'rejected',
        memory_item_id: null,
        changed: true,
      });
      const after = await get(`/organizations/${org}/proposals/${drop}`);
      expect(after.body.proposal.status).toBe('rejected');
      expect((await post(`/organizations/${org}/proposals/${drop}/approve`, {})).status).toBe(409);
      expect((await get(`/organizations/${org}/proposals/999999`)).status).toBe(404);
    });
  });

  describe('replies and projections', () => {
    it('shows a reply receipt view and its audit', async () => {
      const tenant = await createReplyTenant(t, 'Admin clinic');
      const reply = await tenant.request(tenant.body('admin-1'));
      const replyId = reply.body.reply_id as number;
      expect(typeof replyId).toBe('number');
      const listed = await get(`/organizations/${tenant.organization_id}/replies`);
      expect(listed.body.replies.map((r: { reply_id: number }) => r.reply_id)).toEqual([replyId]);
      const shown = await get(`/organizations/${tenant.organization_id}/replies/${replyId}`);
      expect(shown.body.reply).toMatchObject({ reply_id: replyId, status: reply.body.request_status });
      const audit = await get(`/organizations/${tenant.organization_id}/replies/${replyId}/audit`);
      expect(audit.body).toMatchObject({ ok: true, verified: true });
      expect(audit.body.streams.length).toBeGreaterThan(0);
      expect((await get(`/organizations/${org}/replies/${replyId}`)).status).toBe(404);
    });

    it('shows projection status and rebuilds one projection', async () => {
      const status = await get('/projections');
      const names = status.body.projections.map((p: { name: string }) => p.name);
      expect(names).toContain('organizations');
      const rebuilt = await post('/projections/rebuild', { names: ['organizations'] });
      expect(rebuilt.status).toBe(200);
      expect(rebuilt.body.rebuilt.map((r: { name: string }) => r.name)).toEqual(['organizations']);
      expect((await get('/organizations')).body.organizations.length).toBeGreaterThan(0);
      expect((await post('/projections/rebuild', { names: ['nope'] })).status).toBe(422);
    });
  });

  it('is in the OpenAPI document with the operator security scheme', async () => {
    const doc = (await http(t.baseUrl, 'GET', '/openapi.json')).body;
    expect(doc.components.securitySchemes.operator).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/admin/api/v1/organizations'].get.security).toEqual([{ operator: [] }]);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/admin/api/v1')).length).toBeGreaterThan(15);
  });

  // Unused here but keeps the fixture honest: an ingested item is visible to the admin list.
  it('lists items ingested by the CLI path too', async () => {
    const made = await ingest(t.commands, org, 'Cli doc', 'From the CLI.');
    const listed = await get(`/organizations/${org}/memory/items?q=Cli`);
    expect(listed.body.items.map((i: { memory_item_id: number }) => i.memory_item_id)).toEqual([
      made.memory_item_id,
    ]);
  });
});
