import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { freshReplyHint } from '../../src/commands/replies/reply-response';
import { OUTCOME_POLICY, type SystemStatusCode } from '../../src/commands/replies/outcome-policy';
import { conversationThreadDigest, replyIdentity } from '../../src/commands/replies/reply-identity';
import { operatorContext } from '../../src/commands/shared/command-context';
import { streams } from '../../src/events/domain-event';
import type { RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import { createConnector, createOrganization } from './fixtures';
import { ingest } from './memory-fixtures';
import { REPLIES, REPLY_CAPABILITIES } from './reply-fixtures';
import { http, type TestApp } from './test-app';

/** An organization with one assistant, one strict connector and one authoritative memory item. */
export interface ReplyTenant {
  organization_id: number;
  chatbot_id: number;
  connector_id: number;
  token: string;
  memory_item_id: number;
  /** POST …/assistant/replies with this tenant's token. */
  request(body: Record<string, unknown>): ReturnType<typeof http>;
  /** A request body for the default question under idempotency key `key` (thread `thread-{key}`). */
  body(key: string, patch?: Record<string, unknown>): Record<string, unknown>;
  /** Events of the reply-request stream of idempotency key `key`. */
  requestEvents(key: string): Promise<RecordedEvent[]>;
  /** The conversation of external thread `threadId` (null when none was bound) and its events. */
  thread(threadId: string): Promise<{ conversation_id: number | null; events: RecordedEvent[] }>;
}

export const QUESTION = 'When is the clinic open?';

export async function createReplyTenant(t: TestApp, name = 'Clinic'): Promise<ReplyTenant> {
  const organization_id = (await createOrganization(t.commands, name)).organization_id;
  const { chatbot_id } = await t.commands.execute<CreateChatbotCommand, { chatbot_id: number }>(
    new CreateChatbotCommand(organization_id, 'Front desk', null, operatorContext('test')),
  );
  const connector = await createConnector(t.commands, organization_id, REPLY_CAPABILITIES);
  const ingested = await ingest(
    t.commands,
    organization_id,
    'Opening hours',
    'The clinic is open Monday to Friday, 8:00 to 18:00.',
  );
  return replyTenantOn(t, {
    organization_id,
    chatbot_id,
    connector_id: connector.connector_id,
    token: connector.token,
    memory_item_id: ingested.memory_item_id,
  });
}

type TenantIds = Pick<
  ReplyTenant,
  'organization_id' | 'chatbot_id' | 'connector_id' | 'token' | 'memory_item_id'
>;

/** The same tenant through another app (e.g. one restarted on the same data directory). */
export function replyTenantOn(t: TestApp, ids: TenantIds): ReplyTenant {
  const { organization_id, chatbot_id, connector_id, token, memory_item_id } = ids;
  return {
    organization_id,
    chatbot_id,
    connector_id,
    token,
    memory_item_id,
    request: (body) => http(t.baseUrl, 'POST', REPLIES, { token, body }),
    body: (key, patch = {}) => ({
      external_thread_id: `thread-${key}`,
      idempotency_key: key,
      channel: 'email',
      payload: { text: QUESTION, subject: 'Hours', from: 'pat@example.com' },
      ...patch,
    }),
    requestEvents: (key) =>
      t.stores.eventStore.readStream(
        streams.replyRequest(
          replyIdentity({ organization_id, connector_id, chatbot_id, idempotency_key: key }).digest,
        ),
      ),
    thread: async (external_thread_id) => {
      const digest = conversationThreadDigest({
        organization_id,
        connector_id,
        chatbot_id,
        external_thread_id,
      });
      const bound = await t.stores.eventStore.readStream(streams.conversationThread(digest));
      const conversation_id = bound.length > 0 ? (bound[0].data.conversation_id as number) : null;
      const events =
        conversation_id === null
          ? []
          : await t.stores.eventStore.readStream(streams.conversation(conversation_id));
      return { conversation_id, events };
    },
  };
}

/** The §2.8 non-answer form with `code` and its retry semantics (reply_id present unless told otherwise). */
export function nonAnswer(code: string, retryable: boolean, retry_after_ms: number): Record<string, unknown> {
  return {
    ok: false,
    outcome: 'system_status',
    answer: null,
    assistant_message: null,
    request_status: 'failed',
    message_id: null,
    feedback_token: null,
    system_status: { code, retryable, retry_after_ms, trace_id: null },
  };
}

/** Polls `condition` every 10 ms until it holds (fails after `timeoutMs`). */
export async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The §2.8 body for `code` with the outcome policy's retry semantics (and a reply_id unless told otherwise). */
export function expectedNonAnswer(code: SystemStatusCode, withReplyId = true): Record<string, unknown> {
  const { retryable, retry_after_ms } = OUTCOME_POLICY[code];
  return {
    ...nonAnswer(code, retryable, retry_after_ms),
    ...(withReplyId ? { reply_id: expect.any(Number) } : {}),
  };
}

/**
 * A stored non-retryable §2.8 body as a repeated request gets it: the same, its system_status marked a replay with
 * how to get a fresh reply (docs/replies.md).
 */
export function storedFailureReplay(body: Record<string, unknown>): Record<string, unknown> {
  const status = body.system_status as { code: string };
  return {
    ...body,
    system_status: { ...status, idempotent_replay: true, message: freshReplyHint(status.code) },
  };
}
