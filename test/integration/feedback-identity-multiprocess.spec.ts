import { cairn } from '../support/cli';
import { startModelServer, type ModelServer } from '../support/model-server';
import { prepareProcessTenant, type ProcessTenant } from '../support/process-tenant';
import { MODEL_ENV } from '../support/reply-fixtures';
import {
  readEvents,
  requireBuiltServer,
  startServerProcesses,
  stopAllServers,
} from '../support/server-process';
import { http } from '../support/test-app';

const REPLIES = '/app/api/tool-connectors/v1/assistant/replies';

/**
 * Spec §4.7 rule 3 across processes: 50 concurrent `corrected` feedbacks on one assistant message, mixing
 * external_feedback_id F1 with idempotency keys K1, K2, K3 and none, over two server processes on one data
 * directory → exactly one feedback and one correction proposal; every answer is that feedback.
 */
describe('one feedback per identity, across processes', () => {
  jest.setTimeout(60_000);
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

  it('50 concurrent corrected feedbacks mixing F1 with K1, K2, K3 and no key', async () => {
    tenant = await prepareProcessTenant();
    const { dataDir, token } = tenant;
    const servers = await startServerProcesses(2, {
      ...MODEL_ENV,
      CAIRN_DATA_DIR: dataDir,
      OPENAI_BASE_URL: model.url,
    });
    const replied = await http(servers[0].baseUrl, 'POST', REPLIES, {
      token,
      body: {
        external_thread_id: 'thread-fb',
        external_message_id: 'M-fb',
        channel: 'email',
        payload: { text: 'When is the clinic open?', subject: 'Hours' },
      },
    });
    expect(replied.status).toBe(200);
    const messageId: number = replied.body.message_id;
    expect(messageId).toEqual(expect.any(Number));

    const base = { outcome: 'corrected', suggested_answer: 'Open Monday to Friday, 9:00 to 17:00.' };
    const variants = [
      { external_feedback_id: 'F1', idempotency_key: 'K1' },
      { external_feedback_id: 'F1', idempotency_key: 'K2' },
      { external_feedback_id: 'F1' },
      { idempotency_key: 'K3', external_feedback_id: 'F1' },
    ];
    const url = `${REPLIES}/${messageId}/feedback`;
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        http(servers[i % 2].baseUrl, 'POST', url, {
          token,
          body: { ...base, ...variants[i % variants.length] },
        }),
      ),
    );
    const unexpected = responses.filter(
      (r) => !(r.status === 200 || (r.status === 409 && r.body?.error?.code === 'feedback_pending')),
    );
    expect(unexpected.map((r) => [r.status, r.body])).toEqual([]);
    const answered = responses.filter((r) => r.status === 200);
    const first = answered.filter((r) => r.body.idempotent_replay === false);
    expect(first).toHaveLength(1);
    const winner = first[0].body;
    expect(winner.proposal_id).toEqual(expect.any(Number));
    for (const r of answered)
      expect(r.body).toEqual({ ...winner, idempotent_replay: r.body.idempotent_replay });
    // Afterwards every key, alone or together, is that feedback.
    for (const keys of [
      ...variants,
      { idempotency_key: 'K1' },
      { idempotency_key: 'K2' },
      { idempotency_key: 'K3' },
    ]) {
      const again = await http(servers[1].baseUrl, 'POST', url, { token, body: { ...base, ...keys } });
      expect(again.body).toEqual({ ...winner, idempotent_replay: true });
    }
    await stopAllServers();

    const events = await readEvents(dataDir);
    const about = (type: string) => events.filter((e) => e.type === type && e.data.message_id === messageId);
    expect(about('ReplyFeedbackSubmitted')).toHaveLength(1);
    expect(about('ReplyFeedbackReserved')).toHaveLength(1);
    const captured = events.filter(
      (e) =>
        e.type === 'MemoryProposalCaptured' &&
        (e.data.correction as { message_id: number } | null)?.message_id === messageId,
    );
    expect(captured.map((e) => e.data.proposal_id)).toEqual([winner.proposal_id]);
    const listed = await cairn(dataDir, 'proposals:list', String(tenant.organizationId));
    expect(listed.code).toBe(0);
    const proposals = (listed.json as { proposals: Array<{ proposal_id: number }> }).proposals;
    expect(proposals.map((p) => p.proposal_id)).toEqual([winner.proposal_id]);
  });
});
