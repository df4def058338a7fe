import { cairn } from '../support/cli';
import { createConnector } from '../support/fixtures';
import { MEMORY } from '../support/memory-fixtures';
import { startModelApp } from '../support/reply-fixtures';
import { createReplyTenant, type ReplyTenant } from '../support/reply-tenant';
import { http, type TestApp } from '../support/test-app';
import { streams } from '../../src/events/domain-event';
import { MEMORY_ITEMS, type MemoryItemDocument } from '../../src/projections/memory.projection';

/**
 * Approval takes the policy from the proposal (issue 30): `customer_safe_candidate: false` is approved as internal
 * memory, which never grounds a customer reply; the operator overrides it explicitly, and the event says so.
 */
describe('approval policy', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let close: () => Promise<void>;
  let tenant: ReplyTenant;
  let org: string;

  const stored = async (id: number) => {
    const doc = await t.stores.readStore.get<MemoryItemDocument>(MEMORY_ITEMS, String(id));
    if (!doc) throw new Error(`no item ${id}`);
    return doc;
  };

  beforeAll(async () => {
    ({ t, close } = await startModelApp());
    tenant = await createReplyTenant(t, 'Policy clinic');
    org = String(tenant.organization_id);
  });
  afterAll(() => close());

  it('approves an internal proposal as internal (never customer evidence); --customer-safe overrides, recorded', async () => {
    const proposer = await createConnector(t.commands, tenant.organization_id, [
      'memory_propose',
      'memory_search',
    ]);
    const propose = async (title: string, content: string) =>
      (
        await http(t.baseUrl, 'POST', `${MEMORY}/proposals`, {
          token: proposer.token,
          body: { title, content, proposed_policy: { customer_safe_candidate: false } },
        })
      ).body.proposal_id as number;
    const internal = await propose(
      'Parking',
      'Staff park in the rear courtyard; the code is kept at reception.',
    );
    const shown = await cairn(t.dataDir, 'proposals:show', org, String(internal));
    expect(shown.json.approval.policy).toEqual({
      proposed: { review_required: true, customer_safe_candidate: false },
      applied: { audience: 'internal', authority_level: 'approved_source' },
      override: null,
    });
    const approved = await cairn(t.dataDir, 'proposals:approve', org, String(internal));
    expect(approved.json.policy.applied.audience).toBe('internal');
    expect(await stored(approved.json.memory_item_id)).toMatchObject({ audience: 'internal' });

    const parking = await tenant.request(
      tenant.body('parking', {
        payload: { text: 'Where do staff park?', subject: 'Parking', from: 'pat@example.com' },
      }),
    );
    // Internal memory never grounds a customer reply: the only evidence is internal, so no reply is given.
    expect(parking.body).toMatchObject({
      ok: false,
      system_status: { code: 'authoritative_evidence_insufficient' },
    });

    const overridden = await propose(
      'Wheelchair access',
      'The entrance on Lake Street has a ramp and a wide door.',
    );
    const customer = await cairn(t.dataDir, 'proposals:approve', org, String(overridden), '--customer-safe');
    expect(customer.json.policy).toEqual({
      proposed: { review_required: true, customer_safe_candidate: false },
      applied: { audience: 'customer_safe', authority_level: 'approved_source' },
      override: 'customer_safe',
    });
    const events = await t.stores.eventStore.readStream(streams.memoryProposal(overridden));
    expect(events.at(-1)).toMatchObject({
      type: 'MemoryProposalApproved',
      data: { approved_by: expect.stringMatching(/^operator:/), policy: { override: 'customer_safe' } },
    });
    expect(await stored(customer.json.memory_item_id)).toMatchObject({ audience: 'customer_safe' });
    const access = await tenant.request(
      tenant.body('access', {
        payload: { text: 'Is there wheelchair access?', subject: 'Access', from: 'pat@example.com' },
      }),
    );
    expect(access.body.ok).toBe(true);
    expect(access.body.references[0]).toMatchObject({
      memory_item_id: customer.json.memory_item_id,
      audience: 'customer_safe',
      grounding_eligible: true,
    });
    // The proposer's authority role is applied too, and an unknown one is refused at the door.
    const supporting = await http(t.baseUrl, 'POST', `${MEMORY}/proposals`, {
      token: proposer.token,
      body: {
        title: 'Parking nearby',
        content: 'The public garage on Lake Street is two minutes away.',
        proposed_policy: { customer_safe_candidate: true, authority_role: 'supporting' },
      },
    });
    const reference = await cairn(t.dataDir, 'proposals:approve', org, String(supporting.body.proposal_id));
    expect(reference.json.policy.applied).toEqual({
      audience: 'customer_safe',
      authority_level: 'reference',
    });
    expect(await stored(reference.json.memory_item_id)).toMatchObject({ authority_level: 'reference' });
    const unknown = await http(t.baseUrl, 'POST', `${MEMORY}/proposals`, {
      token: proposer.token,
      body: { title: 'x', content: 'y', proposed_policy: { authority_role: 'supreme' } },
    });
    expect(unknown.status).toBe(422);
    const both = await cairn(
      t.dataDir,
      'proposals:approve',
      org,
      String(overridden),
      '--customer-safe',
      '--internal',
    );
    expect(both.code).not.toBe(0);
  });
});
