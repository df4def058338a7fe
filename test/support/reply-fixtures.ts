import type { Clock } from '../../src/common/clock';
import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { replyIdentity, requestFingerprint } from '../../src/commands/replies/reply-identity';
import { operatorContext, systemContext } from '../../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import { IdGenerator } from '../../src/common/id-generator';
import { streams, type DomainEvent } from '../../src/events/domain-event';
import type { RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import type { DraftInput } from '../../src/ai/reply-model-contract';
import { createConnector, createOrganization } from './fixtures';
import { reply, startModelServer, type ChatHandler, type ModelServer } from './model-server';
import { http, startTestApp, type TestApp } from './test-app';

/** Shared setup for the assistant replies integration tests (spec §4.6, §3, §9). */

export const REPLIES = '/app/api/tool-connectors/v1/assistant/replies';
export const REPLY_CAPABILITIES = ['assistant_reply', 'assistant_feedback', 'memory_search'];

export interface ReplyHarness {
  model: ModelServer;
  t: TestApp;
  organizationId: number;
  chatbotId: number;
  close(): Promise<void>;
}

/** The env naming the test models (add OPENAI_BASE_URL). */
export const MODEL_ENV = {
  OPENAI_API_KEY: 'test',
  CAIRN_COMPOSER_MODEL: 'test-composer',
  CAIRN_REVIEWER_MODEL: 'test-reviewer',
};

/** A scripted model server and a real app wired to it (`env` adds or overrides settings). */
export async function startModelApp(
  env: Record<string, string> = {},
  /** Replaces the system clock (tests that move time). */
  clock?: Clock,
): Promise<{ model: ModelServer; t: TestApp; close(): Promise<void> }> {
  const model = await startModelServer();
  const t = await startTestApp({ ...MODEL_ENV, OPENAI_BASE_URL: model.url, ...env }, undefined, [], clock);
  return {
    model,
    t,
    async close() {
      await t.close();
      await model.close();
    },
  };
}

/** A model server, a real app wired to it, one organization with one assistant. */
export async function startReplyHarness(
  orgName = 'Replies',
  env: Record<string, string> = {},
  clock?: Clock,
): Promise<ReplyHarness> {
  const { model, t, close } = await startModelApp(env, clock);
  const organizationId = (await createOrganization(t.commands, orgName)).organization_id;
  const { chatbot_id: chatbotId } = await t.commands.execute<CreateChatbotCommand, { chatbot_id: number }>(
    new CreateChatbotCommand(organizationId, 'Front desk', null, operatorContext('test')),
  );
  return {
    model,
    t,
    organizationId,
    chatbotId,
    close,
  };
}

export interface TestConnector {
  connector_id: number;
  token: string;
}

export async function replyConnector(
  h: ReplyHarness,
  capabilities = REPLY_CAPABILITIES,
): Promise<TestConnector> {
  const { connector_id, token } = await createConnector(h.t.commands, h.organizationId, capabilities);
  return { connector_id, token };
}

/** A reply request body keyed by `key`, asking `text`. */
export function replyBody(key: string, text: string): Record<string, unknown> {
  return {
    external_thread_id: `thread-${key}`,
    idempotency_key: key,
    channel: 'email',
    payload: { text, subject: 'Question', from: 'pat@example.com' },
  };
}

export function postReply(h: ReplyHarness, token: string, body: Record<string, unknown>) {
  return http(h.t.baseUrl, 'POST', REPLIES, { token, body });
}

/** The reply-request stream name of (this organization, connector, assistant, idempotency key). */
export function replyStreamName(h: ReplyHarness, connectorId: number, key: string): string {
  const identity = replyIdentity({
    organization_id: h.organizationId,
    connector_id: connectorId,
    chatbot_id: h.chatbotId,
    idempotency_key: key,
  });
  return streams.replyRequest(identity.digest);
}

export function readStream(h: ReplyHarness, stream: string): Promise<RecordedEvent[]> {
  return h.t.stores.eventStore.readStream(stream);
}

/** The receipt of the last ReplyCompleted event of a stream. */
export async function storedReceipt(h: ReplyHarness, stream: string): Promise<Record<string, unknown>> {
  const completed = (await readStream(h, stream)).filter((e) => e.type === 'ReplyCompleted');
  if (completed.length === 0) throw new Error(`no ReplyCompleted in ${stream}`);
  return completed[completed.length - 1].data.receipt as Record<string, unknown>;
}

/** Appends events to a stream after its current last revision (as a legacy build would have written them). */
export async function appendRaw(h: ReplyHarness, stream: string, events: DomainEvent[]): Promise<void> {
  const existing = await readStream(h, stream);
  const expected = existing.length === 0 ? 'no_stream' : existing[existing.length - 1].revision;
  await h.t.app
    .get(StreamCommandExecutor)
    .append(stream, events, expected, systemContext('legacy-build'), h.organizationId);
}

/** Appends a ReplyCompleted of attempt 1 carrying `receipt`, after what the stream holds. */
export function appendCompletion(
  h: ReplyHarness,
  stream: string,
  replyId: number,
  receipt: Record<string, unknown>,
): Promise<void> {
  const data = {
    reply_id: replyId,
    organization_id: h.organizationId,
    attempt: 1,
    receipt,
    completed_at: new Date().toISOString(),
  };
  return appendRaw(h, stream, [{ type: 'ReplyCompleted', data }]);
}

/**
 * Writes the request record of `body` (sent by the connector's original token) and a completion with `receipt`, as
 * an older build would have: a stream this build never wrote. Returns the reply id.
 */
export async function writeRequestRecord(
  h: ReplyHarness,
  connectorId: number,
  body: Record<string, unknown>,
  receipt: Record<string, unknown>,
): Promise<number> {
  const key = String(body.idempotency_key);
  const stream = replyStreamName(h, connectorId, key);
  const reply_id = await h.t.app.get(IdGenerator).next('reply');
  const external_thread_id = String(body.external_thread_id);
  const fingerprint = requestFingerprint({
    chatbot_id: h.chatbotId,
    external_thread_id,
    external_message_id: null,
    idempotency_key: key,
    channel: (body.channel as string | undefined) ?? null,
    response_mode: null,
    payload: body.payload as Record<string, unknown>,
  });
  const [token_id] = await issuedTokenIds(h, connectorId);
  const at = new Date().toISOString();
  const requested = {
    reply_id,
    organization_id: h.organizationId,
    connector_id: connectorId,
    chatbot_id: h.chatbotId,
    identity_digest: stream.slice('reply-request-'.length),
    key_kind: 'idempotency_key',
    key,
    fingerprint,
    external_thread_id,
    external_message_id: null,
    token_id,
    lease_owner: 'older-build',
    lease_expires_at: at,
    requested_at: at,
  };
  await appendRaw(h, stream, [{ type: 'ReplyRequested', data: requested }]);
  await appendCompletion(h, stream, reply_id, receipt);
  return reply_id;
}

/** The §2.8 body a repeated request gets for a completed reply that cannot be replayed (no reply text). */
export const notReplayed = (code: string, replyId: number) => ({
  ok: false,
  outcome: 'system_status',
  answer: null,
  assistant_message: null,
  reply_id: replyId,
  request_status: 'failed',
  message_id: null,
  feedback_token: null,
  system_status: { code, retryable: false, retry_after_ms: 0, trace_id: null },
});

/** Ids of the tokens a connector was issued, in order (the first is the original). */
export async function issuedTokenIds(h: ReplyHarness, connectorId: number): Promise<string[]> {
  const events = await readStream(h, streams.connector(connectorId));
  return events.filter((e) => e.type === 'ConnectorTokenIssued').map((e) => String(e.data.token_id));
}

/** A draft with one claim per evidence item, each citing it: every retrieved item is cited. */
export const citeAllEvidence: ChatHandler = (request) => {
  const evidence = (request.input as Partial<DraftInput>).evidence ?? [];
  if (evidence.length === 0) return reply.abstain();
  return reply.json({
    answer: evidence.map((e) => e.excerpt).join(' '),
    claims: evidence.map((e) => ({
      text: e.excerpt,
      reference_ids: [e.reference_id],
      quotes: [{ reference_id: e.reference_id, text: e.excerpt }],
    })),
    answer_mode: 'facts',
    answer_intent: 'answer_business_question',
    inferences: [],
    uncertainties: [],
    gaps: [],
    abstain: false,
  });
};
