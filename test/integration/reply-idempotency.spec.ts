import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import { operatorContext } from '../../src/commands/shared/command-context';
import { streams } from '../../src/events/domain-event';
import { reply, type ModelServer } from '../support/model-server';
import { startModelApp } from '../support/reply-fixtures';
import { createReplyTenant, expectedNonAnswer, until, type ReplyTenant } from '../support/reply-tenant';
import type { TestApp } from '../support/test-app';

/**
 * Spec §3 table, the rows not covered elsewhere (replay, legacy receipts and rotated tokens: reply-replay.spec.ts;
 * retryable and final stored failures: reply-outcomes.spec.ts; concurrency over two processes and a killed
 * process: reply-multiprocess.spec.ts). Each asserts HTTP status, body and what the request stream stored.
 */
describe('reply idempotency (spec §3)', () => {
  let model: ModelServer;
  let t: TestApp;
  let close: () => Promise<void>;
  let tenant: ReplyTenant;

  beforeAll(async () => {
    ({ model, t, close } = await startModelApp());
    tenant = await createReplyTenant(t, 'Idempotency');
  });
  afterAll(() => close());
  beforeEach(() => model.script.reset());

  const types = async (key: string) => (await tenant.requestEvents(key)).map((e) => e.type);

  it('none → a new reply with one request record', async () => {
    const res = await tenant.request(tenant.body('new'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, grounding: { idempotent_replay: false } });
    expect(await types('new')).toEqual(['ReplyRequested', 'ReplyCompleted']);
    const { events } = await tenant.thread('thread-new');
    expect(events.map((e) => e.type)).toEqual([
      'ConversationStarted',
      'UserMessageRecorded',
      'AssistantMessageRecorded',
    ]);
  });

  it('pending → 409 reply_request_pending while the first request runs; then the first completes once', async () => {
    model.script.draft(reply.slow(600, reply.draft()));
    const drafts = model.requests.filter((r) => r.role === 'draft').length;
    const first = tenant.request(tenant.body('pending'));
    await until(() => model.requests.filter((r) => r.role === 'draft').length > drafts);
    const second = await tenant.request(tenant.body('pending'));
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('reply_request_pending');
    expect((await first).body.ok).toBe(true);
    expect(await types('pending')).toEqual(['ReplyRequested', 'ReplyCompleted']);
    expect(model.requests.filter((r) => r.role === 'draft').length).toBe(drafts + 1);
  });

  it.each([
    ['idempotency_key', 'idempotency_key_reused', { idempotency_key: 'changed-key' }],
    [
      'external_message_id',
      'external_message_id_reused',
      { idempotency_key: undefined, external_message_id: 'm-1' },
    ],
  ] as const)(
    'a reused %s with changed content → 409 %s; nothing appended, no model call',
    async (_field, code, keys) => {
      const body = { ...tenant.body('changed'), ...keys };
      expect((await tenant.request(body)).body.ok).toBe(true);
      const calls = model.calls.chat;
      const head = await t.stores.eventStore.headPosition();
      for (const changed of [
        { ...body, payload: { text: 'Is the clinic open on Sunday?' } },
        { ...body, channel: 'chat' },
        { ...body, external_thread_id: 'another-thread' },
      ]) {
        const res = await tenant.request(changed);
        expect(res.status).toBe(409);
        expect(res.body.error.code).toBe(code);
      }
      expect(model.calls.chat).toBe(calls);
      expect(await t.stores.eventStore.headPosition()).toBe(head);
    },
  );

  it('failed with the assistant message already persisted → 409 on every repeat, never processed again', async () => {
    // A retryable failure (nothing persisted), then an assistant message for that reply appears in its
    // conversation, as if an earlier attempt had stored it before its process died.
    model.script.draft(reply.status(500));
    const failed = await tenant.request(tenant.body('persisted'));
    expect(failed.body).toEqual(expectedNonAnswer('ai_temporarily_unavailable'));
    const { conversation_id } = await tenant.thread('thread-persisted');
    const executor = t.app.get(StreamCommandExecutor);
    const stream = streams.conversation(conversation_id as number);
    const revision = (await t.stores.eventStore.readStream(stream)).length - 1;
    await executor.append(
      stream,
      [
        {
          type: 'AssistantMessageRecorded',
          data: {
            conversation_id: conversation_id as number,
            message_id: 999_999,
            reply_id: failed.body.reply_id,
            text: 'An answer stored by a crashed attempt.',
            recorded_at: new Date().toISOString(),
          },
        },
      ],
      revision,
      operatorContext('test'),
      tenant.organization_id,
    );
    const calls = model.calls.chat;
    for (let i = 0; i < 2; i++) {
      const res = await tenant.request(tenant.body('persisted'));
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('reply_request_failed_after_message');
    }
    expect(model.calls.chat).toBe(calls);
    const events = await tenant.requestEvents('persisted');
    expect(events.map((e) => e.type)).toEqual([
      'ReplyRequested',
      'ReplyFailed',
      'ReplyRequestReclaimed',
      'ReplyFailed',
    ]);
    expect(events[3].data).toMatchObject({ assistant_message_persisted: true });
  });
});
