import { cairn } from '../support/cli';
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, MEMORY } from '../support/memory-fixtures';
import { http, startTestApp, type TestApp } from '../support/test-app';

/**
 * `proposals:list / approve / reject` as the real CLI process, on the data directory of a live server (embedded
 * mode works with a server running): one JSON object on stdout each, JSON errors with a non-zero exit, and the
 * server's next search sees an approval at once.
 */
describe('proposals CLI against a live server', () => {
  jest.setTimeout(60_000);
  let t: TestApp;
  let org: number;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    org = (await createOrganization(t.commands, 'Review desk')).organization_id;
    token = (await createConnector(t.commands, org, ALL_MEMORY)).token;
  });
  afterAll(async () => t.close());

  const propose = async (title: string, content: string, customerSafe = true): Promise<number> => {
    const res = await http(t.baseUrl, 'POST', `${MEMORY}/proposals`, {
      token,
      body: { title, content, proposed_policy: { customer_safe_candidate: customerSafe } },
    });
    expect(res.status).toBe(200);
    return res.body.proposal_id as number;
  };
  const search = async (query: string): Promise<number[]> =>
    (await http(t.baseUrl, 'POST', `${MEMORY}/search`, { token, body: { query } })).body.results.map(
      (r: { memory_item_id: number }) => r.memory_item_id,
    );

  it('lists, approves and rejects; filters by status; refuses what cannot be done', async () => {
    const keep = await propose('Pelican feeding', 'Pelicans are fed at noon.');
    const drop = await propose('Pelican night', 'Pelicans are fed at midnight.');

    const listed = await cairn(t.dataDir, 'proposals:list', String(org), '--status', 'captured');
    expect(listed.code).toBe(0);
    expect(listed.json.proposals.map((p: { proposal_id: number }) => p.proposal_id)).toEqual([drop, keep]);
    expect(listed.json.proposals[1]).toMatchObject({ title: 'Pelican feeding', status: 'captured' });
    expect(await search('pelican')).toEqual([]);

    const approved = await cairn(t.dataDir, 'proposals:approve', String(org), String(keep));
    expect(approved.code).toBe(0);
    expect(approved.json).toEqual({
      ok: true,
      proposal_id: keep,
      status: 'approved',
      memory_item_id: expect.any(Number),
      changed: true,
      policy: {
        proposed: { review_required: true, customer_safe_candidate: true },
        applied: { audience: 'customer_safe', authority_level: 'approved_source' },
        override: null,
      },
      correction: null,
    });
    const rejected = await cairn(
      t.dataDir,
      'proposals:reject',
      String(org),
      String(drop),
      '--reason',
      'wrong',
    );
    expect(rejected.json).toEqual({
      ok: true,
      proposal_id: drop,
      status: 'rejected',
      memory_item_id: null,
      changed: true,
    });

    // The live server's next search finds the approved item and never the rejected one.
    expect(await search('pelican')).toEqual([approved.json.memory_item_id]);
    const byStatus = async (status: string) =>
      (await cairn(t.dataDir, 'proposals:list', String(org), '--status', status)).json.proposals.map(
        (p: { proposal_id: number }) => p.proposal_id,
      );
    expect(await byStatus('approved')).toEqual([keep]);
    expect(await byStatus('rejected')).toEqual([drop]);
    expect(await byStatus('captured')).toEqual([]);

    const again = await cairn(t.dataDir, 'proposals:approve', String(org), String(drop));
    expect(again.code).not.toBe(0);
    expect(again.json).toMatchObject({ ok: false, error: { code: 'proposal_rejected' } });
    const foreign = await cairn(t.dataDir, 'proposals:approve', String(org + 1000), String(keep));
    expect(foreign.code).not.toBe(0);
    expect(foreign.json).toMatchObject({ ok: false, error: { code: 'proposal_not_found' } });
    const badStatus = await cairn(t.dataDir, 'proposals:list', String(org), '--status', 'pending');
    expect(badStatus.code).not.toBe(0);
    expect(badStatus.json.ok).toBe(false);
  });
});
