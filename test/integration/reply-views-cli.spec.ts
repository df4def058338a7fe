import { cairn } from '../support/cli';
import { reply, type ModelServer } from '../support/model-server';
import { REPLIES, startModelApp } from '../support/reply-fixtures';
import { createReplyTenant, type ReplyTenant } from '../support/reply-tenant';
import { http, type TestApp } from '../support/test-app';

/**
 * Receipt views: `replies:show`, `replies:list` and `audit:reply` as the real CLI process against the data directory
 * of a running server, and the views identical after `projections:rebuild replies`.
 */
describe('reply receipt views and audit:reply (CLI against a live server)', () => {
  jest.setTimeout(60_000);
  let model: ModelServer;
  let t: TestApp;
  let close: () => Promise<void>;
  let tenant: ReplyTenant;
  let answered: Record<string, unknown> & { reply_id: number; message_id: number };
  let failedReplyId: number;

  beforeAll(async () => {
    ({ model, t, close } = await startModelApp());
    tenant = await createReplyTenant(t, 'Views');
    const ok = await tenant.request(tenant.body('views-ok', { external_message_id: 'msg-views' }));
    answered = ok.body;
    model.script.draft(reply.status(500));
    failedReplyId = (await tenant.request(tenant.body('views-failed'))).body.reply_id;
    const feedback = await http(t.baseUrl, 'POST', `${REPLIES}/${answered.message_id}/feedback`, {
      token: tenant.token,
      body: { outcome: 'accepted', rating: 'up', external_feedback_id: 'fb-views' },
    });
    expect(feedback.status).toBe(200);
  });
  afterAll(() => close());

  const org = () => String(tenant.organization_id);

  it('replies:show by reply id and by message id', async () => {
    const byId = await cairn(t.dataDir, 'replies:show', org(), String(answered.reply_id));
    expect(byId.code).toBe(0);
    expect(byId.json.reply).toMatchObject({
      reply_id: answered.reply_id,
      organization_id: tenant.organization_id,
      connector_id: tenant.connector_id,
      chatbot_id: tenant.chatbot_id,
      status: 'completed',
      attempt: 1,
      outcome_code: null,
      external_thread_id: 'thread-views-ok',
      external_message_id: 'msg-views',
      key_kind: 'idempotency_key',
      message_id: answered.message_id,
      conversation_id: answered.conversation_id,
      trace_id: answered.memory_recall_trace_id,
      receipt_version: 2,
      receipt_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      original_token_id: expect.any(String),
      review: {
        reviewer_model: 'test-reviewer',
        sufficient: true,
        answers_as_asked: true,
        claims: 1,
        claim_quotes: [[{ reference_id: expect.stringMatching(/^mi\d+-r1-c/), text: expect.any(String) }]],
      },
      feedback: [
        { outcome: 'accepted', rating: 'up', proposal_id: null, response_review_id: expect.any(Number) },
      ],
    });
    expect(byId.json.reply.references).toEqual([
      {
        reference_id: expect.stringMatching(/^mi\d+-r1-c/),
        memory_item_id: tenant.memory_item_id,
        revision: 1,
      },
    ]);
    expect(byId.json.reply.claim_streams).toHaveLength(2); // the idempotency key and the message id
    const byMessage = await cairn(t.dataDir, 'replies:show', org(), '--message', String(answered.message_id));
    expect(byMessage.json).toEqual(byId.json);
    const other = await cairn(
      t.dataDir,
      'replies:show',
      String(tenant.organization_id + 1000),
      String(answered.reply_id),
    );
    expect(other.code).not.toBe(0);
    expect(other.json.error.code).toBe('reply_not_found');
  });

  it('replies:list filters by status, time and limit', async () => {
    const all = await cairn(t.dataDir, 'replies:list', org());
    expect(all.json.replies.map((r: { reply_id: number }) => r.reply_id)).toEqual([
      failedReplyId,
      answered.reply_id,
    ]);
    const failed = await cairn(t.dataDir, 'replies:list', org(), '--status', 'failed');
    expect(failed.json.replies).toEqual([
      expect.objectContaining({
        reply_id: failedReplyId,
        status: 'failed',
        outcome_code: 'ai_temporarily_unavailable',
        retryable: true,
      }),
    ]);
    const later = await cairn(t.dataDir, 'replies:list', org(), '--since', '2999-01-01T00:00:00Z');
    expect(later.json.replies).toEqual([]);
    const one = await cairn(t.dataDir, 'replies:list', org(), '--limit', '1');
    expect(one.json.replies).toHaveLength(1);
    const bad = await cairn(t.dataDir, 'replies:list', org(), '--limit', '0');
    expect(bad.code).not.toBe(0);
  });

  it('audit:reply lists every bound stream with its events and verified chains', async () => {
    const audit = await cairn(t.dataDir, 'audit:reply', org(), String(answered.reply_id));
    expect(audit.code).toBe(0);
    const roles = audit.json.streams.map((s: { role: string }) => s.role).sort();
    expect(roles).toEqual([
      'cited memory item',
      'conversation',
      'feedback',
      'identity claim',
      'identity claim',
      'quota',
      'recall trace',
      'request',
      'thread binding',
    ]);
    for (const stream of audit.json.streams) {
      expect(stream.chain_verified).toBe(true);
      for (const event of stream.events) expect(event.metadata.hash).toMatch(/^[0-9a-f]{64}$/);
    }
    const types = audit.json.streams.flatMap((s: { events: Array<{ type: string }> }) =>
      s.events.map((e) => e.type),
    );
    expect(types).toEqual(
      expect.arrayContaining([
        'ReplyIdentityClaimed',
        'ReplyRequested',
        'ReplyCompleted',
        'UserMessageRecorded',
        'AssistantMessageRecorded',
        'RecallTraceRecorded',
        'ReplyFeedbackSubmitted',
        'ReplyQuotaConsumed',
      ]),
    );
  });

  it('the views are identical after projections:rebuild replies', async () => {
    const before = await cairn(t.dataDir, 'replies:list', org());
    const rebuilt = await cairn(t.dataDir, 'projections:rebuild', 'replies');
    expect(rebuilt.code).toBe(0);
    const after = await cairn(t.dataDir, 'replies:list', org());
    expect(after.json).toEqual(before.json);
  });
});
