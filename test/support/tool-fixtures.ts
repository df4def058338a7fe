import { toolRunStream as productToolRunStream } from '../../src/commands/replies/reply-tools';
import type { DraftInput } from '../../src/ai/reply-model-contract';
import { RegisterToolCommand, type RegisterToolResult } from '../../src/commands/tools/register-tool.command';
import { SetToolEnabledCommand } from '../../src/commands/tools/set-tool-enabled.command';
import { canonicalDigest } from '../../src/commands/shared/canonical-digest';
import { operatorContext } from '../../src/commands/shared/command-context';
import { streams } from '../../src/events/domain-event';
import type { RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import { changeConnector } from './fixtures';
import { defaultDraft, reply, type ChatStep, type ModelServer } from './model-server';
import { REPLY_CAPABILITIES } from './reply-fixtures';
import type { ReplyTenant } from './reply-tenant';
import type { TestApp } from './test-app';

/** Assistant tools in reply tests: definitions, registration through the real commands, run streams, drafts. */

export const ORDER_TOOL = 'order_status';
export const TRACK_HOST = 'track.example.com';
const ctx = operatorContext('test');

/**
 * A definition the strict contract accepts, pointing at `endpoint` (a loopback http URL of the tool server):
 * input `{order_id}`; output `{status, note?, tracking_url?}` with `tracking_url` linkable on TRACK_HOST.
 */
export function orderToolDefinition(
  endpoint: string,
  patch: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    key: ORDER_TOOL,
    description: 'Looks up the status of an order',
    endpoint,
    timeout_ms: 2000,
    read_only: true,
    requires_approval: false,
    input_schema: {
      type: 'object',
      properties: { order_id: { type: 'string', maxLength: 64 } },
      required: ['order_id'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        status: { type: 'string', maxLength: 32 },
        note: { type: 'string', maxLength: 200 },
        tracking_url: { type: 'string', maxLength: 512 },
      },
      required: ['status'],
      additionalProperties: false,
    },
    linkable_fields: ['tracking_url'],
    allowed_link_hosts: [TRACK_HOST],
    ...patch,
  };
}

/** Registers (or re-registers) a tool through the real command, then enables or disables it. */
export async function registerTool(
  t: TestApp,
  organizationId: number,
  definition: Record<string, unknown>,
  enabled = true,
): Promise<RegisterToolResult> {
  const result = await t.commands.execute<RegisterToolCommand, RegisterToolResult>(
    new RegisterToolCommand(organizationId, definition, ctx),
  );
  await t.commands.execute(new SetToolEnabledCommand(organizationId, result.tool_key, enabled, ctx));
  return result;
}

/** Gives the tenant's connector exactly the reply capabilities plus `assistant_tool:<key>` for each key. */
export async function grantTools(t: TestApp, tenant: ReplyTenant, keys: string[]): Promise<void> {
  await changeConnector(t.commands, tenant.organization_id, tenant.connector_id, {
    type: 'SetCapabilities',
    capabilities: [...REPLY_CAPABILITIES, ...keys.map((key) => `assistant_tool:${key}`)],
  });
}

/** The tool-run stream of one call: SHA-256 of (organization, connector, reply, tool, canonical input). */
export function toolRunStream(
  tenant: Pick<ReplyTenant, 'organization_id' | 'connector_id'>,
  reply_id: number,
  tool_key: string,
  input: unknown,
): string {
  return productToolRunStream({
    organization_id: tenant.organization_id,
    connector_id: tenant.connector_id,
    reply_id,
    tool_key,
    input_sha256: canonicalDigest(input),
  });
}

/** Every event of every tool-run stream of one reply of the tenant (any input), in global order. */
export async function toolRunEventsOf(
  t: TestApp,
  tenant: Pick<ReplyTenant, 'organization_id'>,
  reply_id: number,
): Promise<RecordedEvent[]> {
  const all = await t.stores.eventStore.readAll();
  return all.filter(
    (e) =>
      e.stream.startsWith('tool-run-') &&
      e.data.reply_id === reply_id &&
      e.data.organization_id === tenant.organization_id,
  );
}

/** The stored definition of a tool (latest registration), as the product normalized it. */
export async function storedDefinition(
  t: TestApp,
  organizationId: number,
  key: string,
): Promise<Record<string, unknown>> {
  const events = await t.stores.eventStore.readStream(streams.tool(organizationId, key));
  const registered = events.filter((e) => e.type === 'ToolRegistered');
  return registered[registered.length - 1].data.definition as Record<string, unknown>;
}

/**
 * A draft citing the first memory evidence item AND every tool result (one claim each), once tool results are
 * in the input; the answer quotes the tool output.
 */
export const citeToolDraft: ChatStep = (request) => {
  const input = request.input as DraftInput;
  const draft = defaultDraft(input);
  const memory = input.evidence[0];
  const claims = [
    {
      text: memory.excerpt.slice(0, 200),
      reference_ids: [memory.reference_id],
      quotes: [{ reference_id: memory.reference_id, text: memory.excerpt.slice(0, 200) }],
    },
    ...input.tool_results.map((r) => ({
      text: `Status: ${JSON.stringify(r.output)}`,
      reference_ids: [r.reference_id],
      quotes: [{ reference_id: r.reference_id, text: JSON.stringify(r.output) }],
    })),
  ];
  const answer = claims.map((c) => c.text).join(' ');
  return reply.json({ ...draft, answer, claims });
};

/** The draft requests the model server received from index `from` on. */
export const draftRequests = (model: ModelServer, from = 0) =>
  model.requests.slice(from).filter((r) => r.role === 'draft');

/** The request's stream is one ReplyRequested then ReplyFailed with the body's outcome; no assistant message. */
export async function expectStoredFailure(
  tenant: ReplyTenant,
  key: string,
  body: { system_status: unknown },
): Promise<RecordedEvent> {
  const events = await tenant.requestEvents(key);
  expect(events.map((e) => e.type)).toEqual(['ReplyRequested', 'ReplyFailed']);
  expect(events[1].data).toMatchObject({ outcome: body.system_status, assistant_message_persisted: false });
  const { events: conversation } = await tenant.thread(`thread-${key}`);
  expect(conversation.filter((e) => e.type === 'AssistantMessageRecorded')).toHaveLength(0);
  return events[1];
}
