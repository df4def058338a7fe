import { createConnector, createOrganization } from '../support/fixtures';
import { ADMIN, operatorToken } from '../support/admin-fixtures';
import { ALL_MEMORY, ingest, MEMORY } from '../support/memory-fixtures';
import { createReplyTenant } from '../support/reply-tenant';
import { http, startTestApp, type TestApp } from '../support/test-app';

/** The admin API over real HTTP on the embedded store: memory, documents, proposals, replies and projections. */
describe('admin API: memory, documents, proposals, replies, projections', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let all: string;
  let org: number;
  let connectorToken: string;

  beforeAll(async () => {
    t = await startTestApp();
    all = await operatorToken(t, ['all'], 'Dana');
    org = (await createOrganization(t.commands, 'Admin desk')).organization_id;
    connectorToken = (await createConnector(t.commands, org, ALL_MEMORY)).token;
  });
  afterAll(async () => t.close());

  const get = (path: string, token = all) => http(t.baseUrl, 'GET', `${ADMIN}${path}`, { token });
  const post = (path: string, body: unknown = {}, token = all) =>
    http(t.baseUrl, 'POST', `${ADMIN}${path}`, { token, body });

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

      // Erasure: the item's keys are destroyed; it is gone from the API; again changes nothing.
      const parkingId = page1.body.items[1].memory_item_id as number;
      expect((await post(`/organizations/${org}/memory/items/${parkingId}/erase`, {})).status).toBe(404);
      const erased = await post(`/organizations/${tenant}/memory/items/${parkingId}/erase`, {
        reason: 'asked by the data owner',
      });
      expect(erased.status).toBe(200);
      expect(erased.body).toEqual({
        ok: true,
        subject: `memory-item-${parkingId}`,
        kind: 'memory_item',
        id: parkingId,
        organization_id: tenant,
        erased: true,
        changed: true,
        erased_by: expect.stringContaining('operator'),
        erased_at: expect.any(String),
        linked_subjects: [],
        keys_destroyed: expect.any(Number),
        read_models_forgot: true,
      });
      expect(erased.body.keys_destroyed).toBeGreaterThan(0);
      expect((await get(`/organizations/${tenant}/memory/items/${parkingId}`)).status).toBe(404);
      const erasedAgain = await post(`/organizations/${tenant}/memory/items/${parkingId}/erase`, {});
      expect(erasedAgain.body).toMatchObject({ changed: false, erased_at: erased.body.erased_at });
      expect(
        (await post(`/organizations/${tenant}/memory/items/${parkingId}/erase`, { reason: 5 })).status,
      ).toBe(422);

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

  // Items ingested by the CLI's command path are in the admin list too.
  it('lists items ingested by the CLI path too', async () => {
    const made = await ingest(t.commands, org, 'Cli doc', 'From the CLI.');
    const listed = await get(`/organizations/${org}/memory/items?q=Cli`);
    expect(listed.body.items.map((i: { memory_item_id: number }) => i.memory_item_id)).toEqual([
      made.memory_item_id,
    ]);
  });
});
