import { ReviewProposalCommand } from '../../src/commands/memory/review-proposal.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { streams } from '../../src/events/domain-event';
import {
  MEMORY_PROPOSALS,
  type MemoryProposalDocument,
} from '../../src/projections/memory-proposals.projection';
import { cairn } from '../support/cli';
import { REPLIES, startModelApp } from '../support/reply-fixtures';
import { createReplyTenant, type ReplyTenant } from '../support/reply-tenant';
import { http, type TestApp } from '../support/test-app';

/** Spec §4.7 rule 2 made useful: an approved correction revises what the reply cited, so the next reply uses it. */
describe('corrections that correct', () => {
  jest.setTimeout(60_000);
  let t: TestApp;
  let close: () => Promise<void>;
  let tenant: ReplyTenant;

  beforeAll(async () => {
    ({ t, close } = await startModelApp());
    tenant = await createReplyTenant(t, 'Corrections');
  });
  afterAll(() => close());

  it('corrected feedback targets the cited item; approving it changes the next reply', async () => {
    const first = await tenant.request(tenant.body('before-correction'));
    expect(first.body.suggested_response.text).toContain('8:00 to 18:00');
    expect(first.body.references.map((r: { memory_item_id: number }) => r.memory_item_id)).toEqual([
      tenant.memory_item_id,
    ]);
    const corrected = 'The clinic is open Monday to Friday, 9:00 to 17:00.';
    const feedback = await http(t.baseUrl, 'POST', `${REPLIES}/${first.body.message_id}/feedback`, {
      token: tenant.token,
      body: { outcome: 'corrected', suggested_answer: corrected, external_feedback_id: 'fix-hours' },
    });
    expect(feedback.status).toBe(200);
    const { proposal_id, feedback_id, response_review_id } = feedback.body;

    // The review item is real: proposals:list shows it with its reply and feedback, targeting the cited item.
    const listed = await cairn(
      t.dataDir,
      'proposals:list',
      String(tenant.organization_id),
      '--status',
      'captured',
    );
    expect(listed.json.proposals).toEqual([
      expect.objectContaining({
        proposal_id,
        status: 'captured',
        title: 'Opening hours',
        content: corrected,
        proposed_type: 'correction',
        source_uri: 'https://clinic.example.com/faq',
        proposed_by: `reply_feedback:${first.body.message_id}`,
        target_memory_item_id: tenant.memory_item_id,
        correction: {
          reply_id: first.body.reply_id,
          message_id: first.body.message_id,
          conversation_id: expect.any(Number),
          feedback_id,
          response_review_id,
          cited_memory_item_ids: [tenant.memory_item_id],
        },
      }),
    ]);

    // Pending, it changes nothing.
    const pending = await tenant.request(tenant.body('while-pending'));
    expect(pending.body.suggested_response.text).toContain('8:00 to 18:00');

    await t.commands.execute(
      new ReviewProposalCommand(
        tenant.organization_id,
        proposal_id,
        { type: 'approve' },
        operatorContext('test'),
      ),
    );
    const doc = await t.stores.readStore.get<MemoryProposalDocument>(MEMORY_PROPOSALS, String(proposal_id));
    expect(doc).toMatchObject({ status: 'approved', memory_item_id: tenant.memory_item_id });

    const after = await tenant.request(tenant.body('after-correction'));
    expect(after.body.ok).toBe(true);
    expect(after.body.suggested_response.text).toBe(corrected);
    expect(after.body.references).toEqual([
      expect.objectContaining({
        memory_item_id: tenant.memory_item_id,
        reference_id: expect.stringMatching(new RegExp(`^mi${tenant.memory_item_id}-r2-`)),
      }),
    ]);
    // The old revision is superseded, never deleted.
    const item = await t.stores.eventStore.readStream(streams.memoryItem(tenant.memory_item_id));
    expect(item.map((e) => e.type)).toEqual(
      expect.arrayContaining(['MemoryItemCreated', 'MemoryItemRevised']),
    );
    expect(JSON.stringify(item)).toContain('8:00 to 18:00');
  });
});
