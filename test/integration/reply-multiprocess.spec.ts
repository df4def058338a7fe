import { replyIdentity } from '../../src/commands/replies/reply-identity';
import { streams } from '../../src/events/domain-event';
import type { RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import { reply, startModelServer, type ChatHandler, type ModelServer } from '../support/model-server';
import {
  readEvents,
  requireBuiltServer,
  startServerProcesses,
  stopAllServers,
} from '../support/server-process';
import {
  prepareProcessTenant as prepareTenant,
  type ProcessTenant as Tenant,
} from '../support/process-tenant';
import { http } from '../support/test-app';

/**
 * Spec §3 ("any | concurrent requests with same identity | one request record; loser gets completed replay or 409")
 * and ARCHITECTURE.md invariant 6 ("a crash mid-request leaves a state the same request can resume or reclaim"),
 * with real server processes (`node dist/main.js`) sharing one embedded data directory.
 */

const REPLIES = '/app/api/tool-connectors/v1/assistant/replies';

/** A JSON response body (as the http helper types it). */
type Body = Awaited<ReturnType<typeof http>>['body'];
const types = (events: RecordedEvent[]): string[] => events.map((e) => e.type);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 10 ms until true or `timeoutMs` passed (then throws `what`). */
async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('assistant replies across server processes on one data directory (spec §3, invariant 6)', () => {
  jest.setTimeout(45_000);
  let model: ModelServer;
  let tenant: Tenant | null = null;

  beforeAll(async () => {
    requireBuiltServer();
    model = await startModelServer();
  });
  afterEach(async () => {
    // Whatever happened in the test: no server process outlives it.
    await stopAllServers();
    tenant?.cleanup();
    tenant = null;
    model.script.reset();
  });
  afterAll(async () => {
    await stopAllServers();
    await model?.close();
  });

  const serverEnv = (dataDir: string, extra: Record<string, string> = {}): Record<string, string> => ({
    CAIRN_DATA_DIR: dataDir,
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'test',
    CAIRN_COMPOSER_MODEL: 'test-composer',
    CAIRN_REVIEWER_MODEL: 'test-reviewer',
    ...extra,
  });
  const body = (key: string) => ({
    external_thread_id: `thread-${key}`,
    idempotency_key: key,
    channel: 'email',
    payload: { text: 'When is the clinic open?', subject: 'Hours', from: 'pat@example.com' },
  });
  const draftCalls = () => model.requests.filter((r) => r.role === 'draft').length;
  const reviewCalls = () => model.requests.filter((r) => r.role === 'review').length;

  it('50 concurrent identical requests over two processes: one request record, one composer call, the rest replays or 409', async () => {
    tenant = await prepareTenant();
    const { dataDir, token } = tenant;
    const servers = await startServerProcesses(2, serverEnv(dataDir));
    // Warm both processes up (first-request costs would otherwise keep them out of step).
    const warm = await Promise.all(
      servers.map((s, i) => http(s.baseUrl, 'POST', REPLIES, { token, body: body(`warm-up-${i}`) })),
    );
    expect(warm.map((r) => [r.status, r.body.ok])).toEqual([
      [200, true],
      [200, true],
    ]);
    const drafts = draftCalls();
    const reviews = reviewCalls();
    // The composer is slow, so each winner is still in progress while the other 49 of its group arrive.
    model.script.respond('draft', reply.slow(1500, reply.draft()) as ChatHandler);

    // Each process runs a request without yielding until its first network call (the store is synchronous), so
    // only the first request of an identity in each process can race the other process. Several identities
    // fired interleaved (both processes take them in the same order) give the cross-process race more chances.
    const GROUPS = 4;
    const PER_GROUP = 50;
    const keys = Array.from({ length: GROUPS }, (_, g) => `concurrent-${g}`);
    const groupBody = (g: number) => ({
      ...body(keys[g]),
      payload: { ...body(keys[g]).payload, subject: keys[g] },
    });
    const started = Date.now();
    const sent: Array<Promise<{ group: number; server: number; status: number; body: Body }>> = [];
    for (let i = 0; i < PER_GROUP; i++) {
      for (let g = 0; g < GROUPS; g++) {
        const server = i % 2;
        sent.push(
          http(servers[server].baseUrl, 'POST', REPLIES, { token, body: groupBody(g) }).then((res) => ({
            group: g,
            server,
            status: res.status,
            body: res.body,
          })),
        );
      }
    }
    const responses = await Promise.all(sent);
    const elapsed = Date.now() - started;

    // Every answer is a 200 (winner or replay) or a 409 reply_request_pending: nothing else (no 500, no BUSY).
    const unexpected = responses.filter(
      (r) => !(r.status === 200 || (r.status === 409 && r.body?.error?.code === 'reply_request_pending')),
    );
    expect(unexpected).toEqual([]);

    const winners: Body[] = [];
    for (let g = 0; g < GROUPS; g++) {
      const group = responses.filter((r) => r.group === g);
      const ok = group.filter((r) => r.status === 200);
      const first = ok.filter((r) => r.body.grounding.idempotent_replay === false);
      const replays = ok.filter((r) => r.body.grounding.idempotent_replay === true);
      const conflicts = group.filter((r) => r.status === 409);
      expect({ key: keys[g], winners: first.length }).toEqual({ key: keys[g], winners: 1 });
      expect(replays.length + conflicts.length).toBe(PER_GROUP - 1);
      const winner = first[0].body;
      winners.push(winner);
      expect(winner).toMatchObject({ ok: true, grounding: { status: 'grounded' } });
      for (const r of replays) {
        expect(r.body).toMatchObject({
          ok: true,
          reply_id: winner.reply_id,
          message_id: winner.message_id,
          conversation_id: winner.conversation_id,
          suggested_response: winner.suggested_response,
        });
      }
      // Both processes answered losers of the group (its winner ran in one of them).
      const losersPerServer = [0, 1].map(
        (server) => [...replays, ...conflicts].filter((r) => r.server === server).length,
      );
      expect({ key: keys[g], losersPerServer: losersPerServer.map((n) => n > 0) }).toEqual({
        key: keys[g],
        losersPerServer: [true, true],
      });
    }
    expect(new Set(winners.map((w) => w.reply_id)).size).toBe(GROUPS);
    // One composer call and one review call per identity, whatever the number of requests.
    const draftSubjects = model.requests
      .filter((r) => r.role === 'draft')
      .slice(drafts)
      .map((r) => (r.input as { thread: { subject: string } }).thread.subject)
      .sort();
    expect(draftSubjects).toEqual([...keys].sort());
    expect(reviewCalls() - reviews).toBe(GROUPS);
    expect(elapsed).toBeLessThan(20_000);

    // A repeat once everything settled is a replay, from either process.
    for (const server of servers) {
      const again = await http(server.baseUrl, 'POST', REPLIES, { token, body: groupBody(0) });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({
        reply_id: winners[0].reply_id,
        grounding: { idempotent_replay: true },
      });
    }

    await Promise.all(servers.map((s) => s.stop()));
    expect(servers.flatMap((s) => s.problems())).toEqual([]);

    // The store: one request record per identity (on its stream, and nowhere else), completed once.
    const all = await readEvents(dataDir);
    for (let g = 0; g < GROUPS; g++) {
      const digest = replyIdentity({
        organization_id: tenant.organizationId,
        connector_id: tenant.connectorId,
        chatbot_id: tenant.chatbotId,
        idempotency_key: keys[g],
      }).digest;
      expect(types(await readEvents(dataDir, streams.replyRequest(digest)))).toEqual([
        'ReplyRequested',
        'ReplyCompleted',
      ]);
      const requested = all.filter((e) => e.type === 'ReplyRequested' && e.data.key === keys[g]);
      expect(requested.map((e) => e.data.reply_id)).toEqual([winners[g].reply_id]);
      const conversation = await readEvents(dataDir, streams.conversation(winners[g].conversation_id));
      expect(types(conversation)).toEqual([
        'ConversationStarted',
        'UserMessageRecorded',
        'AssistantMessageRecorded',
      ]);
      expect(conversation[2].data).toMatchObject({
        reply_id: winners[g].reply_id,
        message_id: winners[g].message_id,
      });
    }
    // Exactly one conversation per thread.
    expect(all.filter((e) => e.type === 'ThreadBound')).toHaveLength(GROUPS + 2);
  });

  it('a server killed (SIGKILL) mid-request: the lease blocks repeats, then the request is reclaimed and completes once', async () => {
    tenant = await prepareTenant();
    const { dataDir, token } = tenant;
    const LEASE_MS = 2000;
    const [a, b] = await startServerProcesses(
      2,
      serverEnv(dataDir, { CAIRN_REPLY_LEASE_MS: String(LEASE_MS) }),
    );
    const key = 'crash-1';
    const digest = replyIdentity({
      organization_id: tenant.organizationId,
      connector_id: tenant.connectorId,
      chatbot_id: tenant.chatbotId,
      idempotency_key: key,
    }).digest;
    const stream = streams.replyRequest(digest);

    // A's composer call never answers; A is killed while it waits for it.
    const drafts = draftCalls();
    model.script.draft(reply.hang());
    const lost = http(a.baseUrl, 'POST', REPLIES, { token, body: body(key) }).then(
      (res) => ({ answered: true as const, res }),
      (error: unknown) => ({ answered: false as const, error }),
    );
    await until(() => draftCalls() > drafts, 10_000, 'the composer call of server A');
    await a.crash();
    expect(await a.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const outcome = await lost;
    expect(outcome.answered).toBe(false); // the client saw the connection die, not an answer

    const [requested] = await readEvents(dataDir, stream);
    expect(requested).toMatchObject({ type: 'ReplyRequested', data: { key } });
    const leaseExpiresAt = Date.parse(requested.data.lease_expires_at as string);

    // While the dead process's lease runs, the other process answers 409 pending.
    const beforeRetry = Date.now();
    const early = await http(b.baseUrl, 'POST', REPLIES, { token, body: body(key) });
    if (beforeRetry < leaseExpiresAt - 300) {
      expect(early.status).toBe(409);
      expect(early.body.error.code).toBe('reply_request_pending');
    } else {
      // Too slow to observe the lease (a loaded machine): the repeat may already have reclaimed the request.
      expect([200, 409]).toContain(early.status);
    }

    // After the lease expired, the same request is reclaimed by B and completes.
    await sleep(Math.max(0, leaseExpiresAt - Date.now()) + 50);
    const reclaimed =
      early.status === 200 ? early : await http(b.baseUrl, 'POST', REPLIES, { token, body: body(key) });
    expect(reclaimed.status).toBe(200);
    expect(reclaimed.body).toMatchObject({
      ok: true,
      reply_id: requested.data.reply_id,
      grounding: { status: 'grounded', idempotent_replay: false },
    });
    expect(draftCalls() - drafts).toBe(2); // the hung one in A, the reclaimed one in B

    const replay = await http(b.baseUrl, 'POST', REPLIES, { token, body: body(key) });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({
      reply_id: reclaimed.body.reply_id,
      message_id: reclaimed.body.message_id,
      grounding: { idempotent_replay: true },
    });
    expect(draftCalls() - drafts).toBe(2);

    await b.stop();
    expect(b.problems()).toEqual([]);

    const events = await readEvents(dataDir, stream);
    expect(types(events)).toEqual(['ReplyRequested', 'ReplyRequestReclaimed', 'ReplyCompleted']);
    expect(events[1].data).toMatchObject({ attempt: 2, previous_outcome: 'lease_expired' });
    expect(events[2].data).toMatchObject({ attempt: 2, reply_id: requested.data.reply_id });

    const conversation = await readEvents(dataDir, streams.conversation(reclaimed.body.conversation_id));
    // The crashed attempt's user message was reused: one user and one assistant message for the reply.
    expect(types(conversation)).toEqual([
      'ConversationStarted',
      'UserMessageRecorded',
      'AssistantMessageRecorded',
    ]);
    expect(conversation.map((e) => e.data.reply_id)).toEqual([
      undefined,
      reclaimed.body.reply_id,
      reclaimed.body.reply_id,
    ]);
    expect(conversation[2].data.message_id).toBe(reclaimed.body.message_id);
  });
});
