import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { replyIdentity } from '../../src/commands/replies/reply-identity';
import { operatorContext, systemContext } from '../../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import { streams } from '../../src/events/domain-event';
import { quotaPeriod } from '../../src/commands/replies/reply-quota.decider';
import type { ModelServer } from '../support/model-server';
import { startModelApp } from '../support/reply-fixtures';
import { createReplyTenant, type ReplyTenant } from '../support/reply-tenant';
import type { TestApp } from '../support/test-app';

/**
 * Spec §3 and invariant 7: an idempotency key and an external message id EACH identify a reply request. A request
 * that matches an earlier one by either key is that request (replay, 409 or reclaim), never a second reply; a key
 * reused with other content is 409.
 */
describe('reply identity: either key is the request (spec §3, invariant 7)', () => {
  let model: ModelServer;
  let t: TestApp;
  let close: () => Promise<void>;
  let tenant: ReplyTenant;

  beforeAll(async () => {
    ({ model, t, close } = await startModelApp());
    tenant = await createReplyTenant(t, 'Identity');
  });
  afterAll(() => close());

  const TEXT = 'When is the clinic open?';
  const send = (keys: { key?: string; message?: string }, text = TEXT, thread = 'thread-identity') =>
    tenant.request({
      external_thread_id: thread,
      ...(keys.key ? { idempotency_key: keys.key } : {}),
      ...(keys.message ? { external_message_id: keys.message } : {}),
      channel: 'email',
      payload: { text, subject: 'Hours' },
    });
  const countEvents = async (stream: string, type: string) =>
    (await t.stores.eventStore.readStream(stream)).filter((e) => e.type === type).length;

  it('K1+M1, then K2+M1, then M1 alone: one reply, one assistant message, one quota unit', async () => {
    const first = await send({ key: 'K1', message: 'M1' });
    expect(first.body).toMatchObject({ ok: true, grounding: { idempotent_replay: false } });
    const drafts = model.requests.length;
    for (const keys of [
      { key: 'K2', message: 'M1' },
      { message: 'M1' },
      { key: 'K1' },
      { key: 'K1', message: 'M1' },
    ]) {
      const again = await send(keys);
      expect({ keys, status: again.status }).toEqual({ keys, status: 200 });
      expect(again.body).toMatchObject({
        ok: true,
        reply_id: first.body.reply_id,
        message_id: first.body.message_id,
        grounding: { idempotent_replay: true },
      });
    }
    expect(model.requests.length).toBe(drafts); // no model call for any of them
    const { events } = await tenant.thread('thread-identity');
    expect(events.filter((e) => e.type === 'AssistantMessageRecorded')).toHaveLength(1);
    const quota = streams.replyQuota(tenant.organization_id, quotaPeriod(Date.now()));
    expect(await countEvents(quota, 'ReplyQuotaConsumed')).toBe(1);
  });

  it.each([
    ['K2+M1 with other text', { key: 'K2', message: 'M1' }, 'idempotency_key_reused'],
    ['M1 alone with other text', { message: 'M1' }, 'external_message_id_reused'],
    ['a new key with M1 and other text', { key: 'K9', message: 'M1' }, 'external_message_id_reused'],
  ])('%s → 409, nothing recorded', async (_why, keys: { key?: string; message?: string }, code) => {
    const drafts = model.requests.length;
    const res = await send(keys, 'Do you sell gift cards?');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ ok: false, error: { code } });
    expect(model.requests.length).toBe(drafts);
    // Not even a claim: the refused key stays free.
    const identity = replyIdentity({
      organization_id: tenant.organization_id,
      connector_id: tenant.connector_id,
      chatbot_id: tenant.chatbot_id,
      idempotency_key: keys.key ?? 'K-unused',
    });
    if (keys.key === 'K9')
      expect(await t.stores.eventStore.readStream(streams.replyClaim(identity.digest))).toEqual([]);
  });

  it('a key that named a request about another message is 409 idempotency_key_reused', async () => {
    const res = await send({ key: 'K1', message: 'M2' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('idempotency_key_reused');
  });

  it('two keys that belong to two recorded requests are 409 external_message_id_reused', async () => {
    const other = await send({ key: 'K3', message: 'M3' }, TEXT, 'thread-identity-3');
    expect(other.body.ok).toBe(true);
    const res = await send({ key: 'K3', message: 'M1' }, TEXT, 'thread-identity-3');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('external_message_id_reused');
  });

  it('resumes a request whose process died after claiming its keys, before recording it', async () => {
    const identity = replyIdentity({
      organization_id: tenant.organization_id,
      connector_id: tenant.connector_id,
      chatbot_id: tenant.chatbot_id,
      idempotency_key: 'K-crash',
    });
    // What a crashed process leaves: the key claimed for its request stream, no request recorded.
    await t.app.get(StreamCommandExecutor).append(
      streams.replyClaim(identity.digest),
      [
        {
          type: 'ReplyIdentityClaimed',
          data: {
            organization_id: tenant.organization_id,
            connector_id: tenant.connector_id,
            chatbot_id: tenant.chatbot_id,
            key_kind: 'idempotency_key',
            key: 'K-crash',
            request_digest: identity.digest,
            claimed_at: new Date().toISOString(),
          },
        },
      ],
      'no_stream',
      systemContext('crashed-process'),
      tenant.organization_id,
    );
    const res = await send({ key: 'K-crash', message: 'M-crash' }, TEXT, 'thread-crash');
    expect(res.body).toMatchObject({ ok: true, grounding: { idempotent_replay: false } });
    const requestEvents = await t.stores.eventStore.readStream(streams.replyRequest(identity.digest));
    expect(requestEvents.map((e) => e.type)).toEqual(['ReplyRequested', 'ReplyCompleted']);
    // Its message id was claimed for the same request: the message alone replays it.
    const again = await send({ message: 'M-crash' }, TEXT, 'thread-crash');
    expect(again.body).toMatchObject({ reply_id: res.body.reply_id, grounding: { idempotent_replay: true } });
  });

  it('a claim left by the loser of a race is redirected to the request that was recorded', async () => {
    const recorded = await send({ message: 'M-race' }, TEXT, 'thread-race');
    expect(recorded.body.ok).toBe(true);
    const scope = {
      organization_id: tenant.organization_id,
      connector_id: tenant.connector_id,
      chatbot_id: tenant.chatbot_id,
    };
    const orphan = replyIdentity({ ...scope, idempotency_key: 'K-race' });
    await t.app.get(StreamCommandExecutor).append(
      streams.replyClaim(orphan.digest),
      [
        {
          type: 'ReplyIdentityClaimed',
          data: {
            ...scope,
            key_kind: 'idempotency_key',
            key: 'K-race',
            request_digest: orphan.digest,
            claimed_at: new Date().toISOString(),
          },
        },
      ],
      'no_stream',
      systemContext('race-loser'),
      tenant.organization_id,
    );
    const res = await send({ key: 'K-race', message: 'M-race' }, TEXT, 'thread-race');
    expect(res.body).toMatchObject({
      reply_id: recorded.body.reply_id,
      grounding: { idempotent_replay: true },
    });
    const claim = await t.stores.eventStore.readStream(streams.replyClaim(orphan.digest));
    expect(claim.map((e) => e.type)).toEqual(['ReplyIdentityClaimed', 'ReplyIdentityRedirected']);
    const byKey = await send({ key: 'K-race' }, TEXT, 'thread-race');
    expect(byKey.body.reply_id).toBe(recorded.body.reply_id);
  });

  it('a completed request replays after another assistant is added (the stored request names its chatbot)', async () => {
    const before = await send({ key: 'K-bots', message: 'M-bots' }, TEXT, 'thread-bots');
    expect(before.body.ok).toBe(true);
    await t.commands.execute(
      new CreateChatbotCommand(tenant.organization_id, 'Second desk', null, operatorContext('test')),
    );
    for (const keys of [{ key: 'K-bots', message: 'M-bots' }, { message: 'M-bots' }]) {
      const again = await send(keys, TEXT, 'thread-bots');
      expect(again.body).toMatchObject({
        reply_id: before.body.reply_id,
        grounding: { idempotent_replay: true },
      });
    }
    const fresh = await send({ key: 'K-new-after-bots' }, TEXT, 'thread-bots-2');
    expect(fresh.status).toBe(422);
    expect(fresh.body.error.details).toEqual([{ field: 'chatbot_id', message: 'required' }]);
  });
});
