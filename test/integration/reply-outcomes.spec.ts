import { SetChatbotPausedCommand } from '../../src/commands/chatbots/set-chatbot-paused.command';
import { ChangeOrganizationCommand } from '../../src/commands/organizations/change-organization.command';
import { OUTCOME_POLICY, type SystemStatusCode } from '../../src/commands/replies/outcome-policy';
import { operatorContext } from '../../src/commands/shared/command-context';
import { streams } from '../../src/events/domain-event';
import type { DraftInput } from '../../src/ai/reply-model-contract';
import { ingest } from '../support/memory-fixtures';
import { modelFailures } from '../support/reply-model-failures';
import { defaultDraft, reply, type ModelServer } from '../support/model-server';
import { startModelApp } from '../support/reply-fixtures';
import {
  createReplyTenant,
  expectedNonAnswer as expected,
  storedFailureReplay,
  until,
  type ReplyTenant,
} from '../support/reply-tenant';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * One HTTP test per spec §7 code the service produces. Each asserts the HTTP status, the §2.8 body (retry semantics
 * from the one outcome policy), what the request stream stored, that no assistant message was stored, and what a
 * repeat of the same request gets. Elsewhere: completed_reply_* (reply-replay.spec.ts), assistant_run_canceled on
 * shutdown (reply-shutdown.spec.ts); tool codes come with assistant tools. deterministic_fallback_rejected is never
 * produced: no fallback answer exists to reject (ARCHITECTURE.md invariant 3).
 */
const ctx = operatorContext('test');
describe('reply outcomes over HTTP (spec §7, one test per producible code)', () => {
  let model: ModelServer;
  let t: TestApp;
  let close: () => Promise<void>;
  let clinic: ReplyTenant;

  beforeAll(async () => {
    ({ model, t, close } = await startModelApp({
      CAIRN_REPLY_THREAD_LIMIT: '3',
      CAIRN_MODEL_TIMEOUT_MS: '1500',
    }));
    clinic = await createReplyTenant(t);
  });
  afterAll(() => close());
  beforeEach(() => model.script.reset());

  /** The request's stream ends in one ReplyFailed with the body's outcome, and its thread has no assistant message. */
  async function expectStoredFailure(tenant: ReplyTenant, key: string, body: Record<string, unknown>) {
    const events = await tenant.requestEvents(key);
    expect(events.filter((e) => e.type === 'ReplyRequested')).toHaveLength(1);
    const failed = events.at(-1);
    expect(failed?.type).toBe('ReplyFailed');
    expect(failed?.data).toMatchObject({ outcome: body.system_status, assistant_message_persisted: false });
    const { events: conversation } = await tenant.thread(`thread-${key}`);
    expect(conversation.filter((e) => e.type === 'AssistantMessageRecorded')).toHaveLength(0);
  }

  /** A retryable outcome is reclaimed on repeat and answered; a final one is the stored result, no model call. */
  async function expectRepeat(
    tenant: ReplyTenant,
    key: string,
    first: { body: Record<string, unknown> },
    patch: Record<string, unknown> = {},
  ) {
    const code = (first.body.system_status as { code: SystemStatusCode }).code;
    const calls = model.calls.chat;
    const before = (await tenant.requestEvents(key)).length;
    const again = await tenant.request(tenant.body(key, patch));
    expect(again.status).toBe(200);
    const events = await tenant.requestEvents(key);
    if (OUTCOME_POLICY[code].retryable) {
      expect(again.body).toMatchObject({ ok: true, reply_id: first.body.reply_id });
      expect(events.slice(before).map((e) => e.type)).toEqual(['ReplyRequestReclaimed', 'ReplyCompleted']);
    } else {
      expect(again.body).toEqual(storedFailureReplay(first.body));
      expect(events).toHaveLength(before);
      expect(model.calls.chat).toBe(calls);
    }
  }

  const MODEL_FAILURES = modelFailures(() => model);

  it.each(MODEL_FAILURES.map((f, i) => [f.code, f.why, i] as const))('%s (%s)', async (code, _why, i) => {
    MODEL_FAILURES[i].script();
    const key = `model-failure-${i}`;
    const res = await clinic.request(clinic.body(key));
    expect(res.status).toBe(200);
    const want = expected(code);
    const retryAfter = MODEL_FAILURES[i].retryAfterMs;
    if (retryAfter !== undefined)
      want.system_status = { ...(want.system_status as object), retry_after_ms: retryAfter };
    expect(res.body).toEqual(want);
    await expectStoredFailure(clinic, key, res.body);
    await expectRepeat(clinic, key, res);
  });

  const INSUFFICIENT: Array<[string, () => void, string]> = [
    ['the composer abstains', () => model.script.draft(reply.abstain()), 'insufficient-abstain'],
    [
      'the reviewer finds the evidence merely related',
      () => model.script.review(reply.insufficient()),
      'insufficient-related',
    ],
    [
      'the reviewer finds it does not answer as asked',
      () => model.script.review(reply.notAsAsked()),
      'insufficient-asked',
    ],
  ];

  it.each(INSUFFICIENT)(
    'authoritative_evidence_insufficient when %s (rule 9 form: no reply_id)',
    async (_why, script, key) => {
      script();
      const res = await clinic.request(clinic.body(key));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected('authoritative_evidence_insufficient', false));
      await expectStoredFailure(clinic, key, res.body);
      await expectRepeat(clinic, key, res);
    },
  );

  it('authoritative_evidence_insufficient without any evidence: no model call at all', async () => {
    const calls = model.calls.chat;
    const res = await clinic.request(
      clinic.body('insufficient-none', { payload: { text: 'Do you sell volcano insurance?' } }),
    );
    expect(res.body).toEqual(expected('authoritative_evidence_insufficient', false));
    expect(model.calls.chat).toBe(calls);
    await expectStoredFailure(clinic, 'insufficient-none', res.body);
  });

  it('assistant_paused while the assistant is paused; resuming lets the same request through', async () => {
    const tenant = await createReplyTenant(t, 'Paused bot');
    await t.commands.execute(
      new SetChatbotPausedCommand(tenant.organization_id, tenant.chatbot_id, true, ctx),
    );
    const calls = model.calls.chat;
    const res = await tenant.request(tenant.body('paused'));
    expect(res.body).toEqual(expected('assistant_paused'));
    expect(model.calls.chat).toBe(calls);
    await expectStoredFailure(tenant, 'paused', res.body);
    await t.commands.execute(
      new SetChatbotPausedCommand(tenant.organization_id, tenant.chatbot_id, false, ctx),
    );
    await expectRepeat(tenant, 'paused', res);
  });

  it('organization_agent_activity_paused while the organization is paused; resuming lets it through', async () => {
    const tenant = await createReplyTenant(t, 'Paused org');
    const change = (type: 'PauseAgentActivity' | 'ResumeAgentActivity') =>
      t.commands.execute(new ChangeOrganizationCommand(tenant.organization_id, { type }, ctx));
    await change('PauseAgentActivity');
    const res = await tenant.request(tenant.body('org-paused'));
    expect(res.body).toEqual(expected('organization_agent_activity_paused'));
    await expectStoredFailure(tenant, 'org-paused', res.body);
    await change('ResumeAgentActivity');
    await expectRepeat(tenant, 'org-paused', res);
  });

  it('assistant_run_canceled when the assistant is paused while the models work: nothing is recorded', async () => {
    const tenant = await createReplyTenant(t, 'Paused mid-run');
    model.script.draft(reply.slow(700, reply.draft()));
    const drafts = model.requests.filter((r) => r.role === 'draft').length;
    const pending = tenant.request(tenant.body('mid-run'));
    await until(() => model.requests.filter((r) => r.role === 'draft').length > drafts);
    await t.commands.execute(
      new SetChatbotPausedCommand(tenant.organization_id, tenant.chatbot_id, true, ctx),
    );
    const res = await pending;
    expect(res.body).toEqual(expected('assistant_run_canceled'));
    await expectStoredFailure(tenant, 'mid-run', res.body);
    await t.commands.execute(
      new SetChatbotPausedCommand(tenant.organization_id, tenant.chatbot_id, false, ctx),
    );
    await expectRepeat(tenant, 'mid-run', res);
  });

  it('assistant_safety_limit_reached once a thread holds CAIRN_REPLY_THREAD_LIMIT assistant replies', async () => {
    const thread = { external_thread_id: 'auto-responder-loop' };
    for (const n of [1, 2, 3]) {
      const ok = await clinic.request(clinic.body(`loop-${n}`, thread));
      expect(ok.body.ok).toBe(true);
    }
    const calls = model.calls.chat;
    const res = await clinic.request(clinic.body('loop-4', thread));
    expect(res.body).toEqual(expected('assistant_safety_limit_reached'));
    expect(model.calls.chat).toBe(calls);
    const events = await clinic.requestEvents('loop-4');
    expect(events.at(-1)).toMatchObject({ type: 'ReplyFailed', data: { outcome: res.body.system_status } });
    const { events: conversation } = await clinic.thread('auto-responder-loop');
    expect(conversation.filter((e) => e.type === 'AssistantMessageRecorded')).toHaveLength(3);
    // Another thread is not limited.
    expect((await clinic.request(clinic.body('loop-other'))).body.ok).toBe(true);
  });

  it('assistant_plan_limit_reached once the month holds the limit; failures use no quota; raising it lets the same request through', async () => {
    const tenant = await createReplyTenant(t, 'Small plan');
    const setLimit = (monthly_replies: number) =>
      t.commands.execute(
        new ChangeOrganizationCommand(tenant.organization_id, { type: 'SetPlanLimit', monthly_replies }, ctx),
      );
    await setLimit(2);
    expect((await tenant.request(tenant.body('plan-1'))).body.ok).toBe(true);
    model.script.review(reply.unsupported(), reply.unsupported()); // the draft and its one redraft
    expect((await tenant.request(tenant.body('plan-failed'))).body.system_status.code).toBe(
      'semantic_review_failed',
    );
    expect((await tenant.request(tenant.body('plan-2'))).body.ok).toBe(true);
    const calls = model.calls.chat;
    const res = await tenant.request(tenant.body('plan-3'));
    expect(res.body).toEqual(expected('assistant_plan_limit_reached'));
    expect(res.body.system_status).toMatchObject({ retryable: true, retry_after_ms: 3_600_000 });
    expect(model.calls.chat).toBe(calls);
    await expectStoredFailure(tenant, 'plan-3', res.body);

    const period = new Date().toISOString().slice(0, 7);
    const quota = await t.stores.eventStore.readStream(streams.replyQuota(tenant.organization_id, period));
    const count = (type: string) => quota.filter((e) => e.type === type).length;
    expect([count('ReplyQuotaReserved'), count('ReplyQuotaConsumed'), count('ReplyQuotaReleased')]).toEqual([
      3, 2, 1,
    ]);

    await setLimit(3);
    await expectRepeat(tenant, 'plan-3', res);
  });

  it('semantic_review_evidence_overflow when the cited evidence exceeds the review bound: the reviewer is not called', async () => {
    const tenant = await createReplyTenant(t, 'Big docs');
    const paragraph = 'Parking for patients is available in the garage on Elm Street, level two. ';
    for (const n of [1, 2, 3, 4, 5, 6, 7]) {
      const sections = Array.from(
        { length: 12 },
        (_, i) => `## Parking note ${i}\n\n${paragraph.repeat(14)}`,
      );
      await ingest(t.commands, tenant.organization_id, `Parking guide ${n}`, sections.join('\n\n'));
    }
    model.script.draft((request) => {
      const input = request.input as DraftInput;
      const draft = defaultDraft(input);
      const claims = input.evidence.map((e) => ({
        text: 'Parking for patients is in the garage.',
        reference_ids: [e.reference_id],
        quotes: [{ reference_id: e.reference_id, text: 'Parking for patients is available in the garage' }],
      }));
      return reply.json({ ...draft, claims });
    });
    const reviews = model.requests.filter((r) => r.role === 'review').length;
    const question = { payload: { text: 'Where can patients park in the garage?' } };
    const res = await tenant.request(tenant.body('overflow', question));
    expect(res.body).toEqual(expected('semantic_review_evidence_overflow'));
    expect(model.requests.filter((r) => r.role === 'review').length).toBe(reviews);
    await expectStoredFailure(tenant, 'overflow', res.body);
    await expectRepeat(tenant, 'overflow', res, question);
  });

  it('evidence_changed when a cited item is revised while the reply is drafted; the repeat drafts on the new revision', async () => {
    const tenant = await createReplyTenant(t, 'Moving target');
    const doc = (content: string) =>
      ingest(t.commands, tenant.organization_id, 'Parking', content, { document_key: 'parking' });
    await doc('Parking is free behind the building.');
    model.script.draft(reply.slow(700, reply.draft()));
    const drafts = model.requests.filter((r) => r.role === 'draft').length;
    const question = { payload: { text: 'Is parking free behind the building?' } };
    const pending = tenant.request(tenant.body('changed', question));
    await until(() => model.requests.filter((r) => r.role === 'draft').length > drafts);
    expect((await doc('Parking behind the building costs 2 euros per hour.')).status).toBe('revised');
    const res = await pending;
    expect(res.body).toEqual(expected('evidence_changed'));
    await expectStoredFailure(tenant, 'changed', res.body);
    const again = await tenant.request(tenant.body('changed', question));
    expect(again.body).toMatchObject({ ok: true, reply_id: res.body.reply_id });
    expect(again.body.suggested_response.text).toContain('2 euros');
  });

  it('assistant_runtime_unavailable without a model configured: never a canned answer, not retryable', async () => {
    const bare = await startTestApp({});
    try {
      const tenant = await createReplyTenant(bare, 'No model');
      const res = await tenant.request(tenant.body('no-model'));
      expect(res.body).toEqual(expected('assistant_runtime_unavailable'));
      expect(res.body.system_status).toEqual({
        code: 'assistant_runtime_unavailable',
        retryable: false,
        retry_after_ms: 0,
        trace_id: null,
      });
      const events = await tenant.requestEvents('no-model');
      expect(events.at(-1)).toMatchObject({ type: 'ReplyFailed', data: { outcome: res.body.system_status } });
      // The repeat gets the stored outcome: nothing is reclaimed, nothing retried; it says how to get a fresh one.
      const again = await tenant.request(tenant.body('no-model'));
      expect(again.body).toEqual(storedFailureReplay(res.body));
      expect(again.body.system_status.message).toContain('new external_message_id');
      expect(await tenant.requestEvents('no-model')).toHaveLength(events.length);
    } finally {
      await bare.close();
    }
  });
});
