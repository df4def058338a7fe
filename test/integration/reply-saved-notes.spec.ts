import { ReviewProposalCommand } from '../../src/commands/memory/review-proposal.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { createConnector } from '../support/fixtures';
import { MEMORY } from '../support/memory-fixtures';
import type { ModelServer } from '../support/model-server';
import { startModelApp } from '../support/reply-fixtures';
import { createReplyTenant, type ReplyTenant } from '../support/reply-tenant';
import { http, type TestApp } from '../support/test-app';

type Evidence = { reference_id: string; excerpt: string };

/**
 * Saved notes are internal tool memory (spec §4.3: "it creates no customer-facing assistant instructions") and
 * proposals affect nothing before approval (§2.4): neither ever reaches a reply's evidence, although the saving
 * connector's own search finds both notes. Approving the proposal is what makes it evidence.
 */
describe('saved notes and pending proposals never become reply evidence', () => {
  let t: TestApp;
  let model: ModelServer;
  let close: () => Promise<void>;
  let tenant: ReplyTenant;

  beforeAll(async () => {
    ({ t, model, close } = await startModelApp());
    tenant = await createReplyTenant(t, 'Notes');
  });
  afterAll(() => close());

  const lastDraftEvidence = (): Evidence[] => {
    const drafts = model.requests.filter((request) => request.role === 'draft');
    return (drafts[drafts.length - 1].input as { evidence: Evidence[] }).evidence;
  };

  it('only the operator-approved item is evidence; notes and the pending proposal are not', async () => {
    const tool = (
      await createConnector(t.commands, tenant.organization_id, [
        'memory_save',
        'memory_propose',
        'memory_search',
      ])
    ).token;
    const save = (visibility: string, content: string) =>
      http(t.baseUrl, 'POST', `${MEMORY}/save`, {
        token: tool,
        body: { kind: 'note', title: 'Clinic open hours', content, visibility },
      });
    expect((await save('organization_internal', 'The clinic is open on Sunday for staff.')).status).toBe(200);
    expect((await save('tool_private', 'The clinic is open on Monday at dawn.')).status).toBe(200);
    const proposal = await http(t.baseUrl, 'POST', `${MEMORY}/proposals`, {
      token: tool,
      body: {
        title: 'Clinic open Saturday',
        content: 'The clinic is open on Saturday morning.',
        // Proposed as customer-facing: approval applies the proposal's policy (an internal one is never evidence).
        proposed_policy: { customer_safe_candidate: true },
      },
    });
    expect(proposal.status).toBe(200);
    // The notes are in memory and match the question.
    const found = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
      token: tool,
      body: { query: 'When is the clinic open?' },
    });
    expect(found.body.results.length).toBe(3);

    const before = await tenant.request(tenant.body('notes-1'));
    expect(before.status).toBe(200);
    expect(before.body.ok).toBe(true);
    const evidence = lastDraftEvidence();
    expect(evidence.map((e) => e.reference_id.split('-')[0])).toEqual([`mi${tenant.memory_item_id}`]);
    for (const text of ['Sunday', 'Monday at dawn', 'Saturday']) {
      expect(evidence.some((e) => e.excerpt.includes(text))).toBe(false);
    }

    const approved = await t.commands.execute(
      new ReviewProposalCommand(
        tenant.organization_id,
        proposal.body.proposal_id,
        { type: 'approve' },
        operatorContext('t'),
      ),
    );
    await tenant.request(tenant.body('notes-2'));
    const after = lastDraftEvidence().map((e) => e.reference_id.split('-')[0]);
    expect(after.sort()).toEqual([`mi${approved.memory_item_id}`, `mi${tenant.memory_item_id}`].sort());
  });
});
