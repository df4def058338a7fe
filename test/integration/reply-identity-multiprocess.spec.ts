import { quotaPeriod } from '../../src/commands/replies/reply-quota.decider';
import { streams } from '../../src/events/domain-event';
import { reply, startModelServer, type ChatHandler, type ModelServer } from '../support/model-server';
import { prepareProcessTenant, type ProcessTenant } from '../support/process-tenant';
import {
  readEvents,
  requireBuiltServer,
  startServerProcesses,
  stopAllServers,
} from '../support/server-process';
import { http } from '../support/test-app';

const REPLIES = '/app/api/tool-connectors/v1/assistant/replies';

/**
 * Invariant 7 across processes: 50 concurrent requests for one external message, mixing idempotency key K1, K2
 * and none, over two server processes on one data directory → exactly one reply, one assistant message, one quota
 * unit; every other answer is a replay of it or a 409 while it is in progress.
 */
describe('one external message, one reply, whatever keys come with it, across processes', () => {
  jest.setTimeout(45_000);
  let model: ModelServer;
  let tenant: ProcessTenant | null = null;

  beforeAll(async () => {
    requireBuiltServer();
    model = await startModelServer();
  });
  afterAll(async () => {
    await stopAllServers();
    tenant?.cleanup();
    await model?.close();
  });

  it('50 concurrent requests mixing K1, K2 and no key with the same M1', async () => {
    tenant = await prepareProcessTenant();
    const { dataDir, token } = tenant;
    const servers = await startServerProcesses(2, {
      CAIRN_DATA_DIR: dataDir,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'test',
      CAIRN_COMPOSER_MODEL: 'test-composer',
      CAIRN_REVIEWER_MODEL: 'test-reviewer',
    });
    const base = {
      external_thread_id: 'thread-mixed',
      external_message_id: 'M1',
      channel: 'email',
      payload: { text: 'When is the clinic open?', subject: 'Hours' },
    };
    const warm = await Promise.all(
      servers.map((s, i) =>
        http(s.baseUrl, 'POST', REPLIES, {
          token,
          body: { ...base, external_thread_id: `warm-${i}`, external_message_id: `warm-${i}` },
        }),
      ),
    );
    expect(warm.map((r) => r.status)).toEqual([200, 200]);
    model.script.respond('draft', reply.slow(1000, reply.draft()) as ChatHandler);
    const variants = [{ idempotency_key: 'K1' }, { idempotency_key: 'K2' }, {}];
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        http(servers[i % 2].baseUrl, 'POST', REPLIES, { token, body: { ...base, ...variants[i % 3] } }),
      ),
    );
    const unexpected = responses.filter(
      (r) => !(r.status === 200 || (r.status === 409 && r.body?.error?.code === 'reply_request_pending')),
    );
    expect(unexpected.map((r) => [r.status, r.body])).toEqual([]);
    const answered = responses.filter((r) => r.status === 200);
    const first = answered.filter((r) => r.body.grounding.idempotent_replay === false);
    expect(first).toHaveLength(1);
    const winner = first[0].body;
    expect(new Set(answered.map((r) => r.body.reply_id))).toEqual(new Set([winner.reply_id]));
    // And afterwards every variant replays it.
    for (const variant of variants) {
      const again = await http(servers[1].baseUrl, 'POST', REPLIES, { token, body: { ...base, ...variant } });
      expect(again.body).toMatchObject({ reply_id: winner.reply_id, grounding: { idempotent_replay: true } });
    }
    await stopAllServers();

    const events = await readEvents(dataDir);
    const requested = events.filter(
      (e) => e.type === 'ReplyRequested' && e.data.external_message_id === 'M1',
    );
    expect(requested).toHaveLength(1);
    const messages = events.filter(
      (e) => e.type === 'AssistantMessageRecorded' && e.data.reply_id === winner.reply_id,
    );
    expect(messages).toHaveLength(1);
    const quota = await readEvents(
      dataDir,
      streams.replyQuota(tenant.organizationId, quotaPeriod(Date.now())),
    );
    const consumed = quota.filter((e) => e.type === 'ReplyQuotaConsumed');
    expect(consumed.map((e) => e.data.reply_id)).toEqual(expect.arrayContaining([winner.reply_id]));
    expect(consumed.filter((e) => e.data.reply_id === winner.reply_id)).toHaveLength(1);
    expect(consumed).toHaveLength(3); // the two warm-ups and the one reply
  });
});
