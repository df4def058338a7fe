import type { DraftInput } from '../../src/ai/reply-model-contract';
import { MAX_TOOL_CALLS_PER_REPLY } from '../../src/commands/replies/reply-tools';
import { canonicalDigest } from '../../src/commands/shared/canonical-digest';
import { operatorContext } from '../../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import { SetToolEnabledCommand } from '../../src/commands/tools/set-tool-enabled.command';
import { streams } from '../../src/events/domain-event';
import { parseToolDefinition } from '../../src/tools/tool-definition';
import { offeredTools, reply } from '../support/model-server';
import {
  createReplyTenant,
  expectedNonAnswer as expected,
  storedFailureReplay,
} from '../support/reply-tenant';
import {
  citeToolDraft,
  draftRequests,
  expectStoredFailure,
  grantTools,
  ORDER_TOOL,
  orderToolDefinition,
  registerTool,
  toolRunEventsOf,
  toolRunStream,
} from '../support/tool-fixtures';
import { A1, askA1, startToolHarness, type ToolHarness } from '../support/tool-harness';
import { toolReply } from '../support/tool-server';

/**
 * The assistant tool system_status codes through the real HTTP path, with a real local tool endpoint:
 * external_tool_approval_unsupported, assistant_tool_limit_reached and external_agent_run_binding_invalid
 * (external_tool_output_unsafe: reply-tools-safety.spec.ts). Each asserts HTTP status, the §2.8 body, the stored
 * request events and what reached the tool endpoint.
 */
const SHIPPED = { tracking_url: 'https://track.example.com/A1', status: 'shipped' };

describe('assistant tool outcomes over HTTP (spec §4.6 rule 10, §7)', () => {
  let h: ToolHarness;
  let t: ToolHarness['t'];
  let model: ToolHarness['model'];
  let tools: ToolHarness['tools'];

  beforeAll(async () => {
    h = await startToolHarness();
    ({ t, model, tools } = h);
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it.each([
    ['requires_approval true', { requires_approval: true }],
    ['read_only false (write risk)', { read_only: false }],
  ])(
    'external_tool_approval_unsupported for a stored definition with %s: no tool run, no call',
    async (why, flags) => {
      const tenant = await createReplyTenant(t, `Tools approval ${why}`);
      // A registration by an older build: today's contract rejects the flag, so it is appended directly.
      const definition = {
        ...parseToolDefinition(orderToolDefinition(tools.endpoint('/approval'))),
        ...flags,
      };
      const ctx = operatorContext('test');
      await t.app.get(StreamCommandExecutor).append(
        streams.tool(tenant.organization_id, ORDER_TOOL),
        [
          {
            type: 'ToolRegistered',
            data: {
              organization_id: tenant.organization_id,
              tool_key: ORDER_TOOL,
              definition,
              definition_sha256: canonicalDigest(definition),
              version: 1,
              registered_at: new Date().toISOString(),
            },
          },
        ],
        'no_stream',
        ctx,
        tenant.organization_id,
      );
      await t.commands.execute(new SetToolEnabledCommand(tenant.organization_id, ORDER_TOOL, true, ctx));
      await grantTools(t, tenant, [ORDER_TOOL]);
      tools.respond('/approval', toolReply.json(SHIPPED));
      const from = model.requests.length;
      model.script.draft(askA1());
      const res = await tenant.request(tenant.body('approval'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected('external_tool_approval_unsupported'));
      await expectStoredFailure(tenant, 'approval', res.body);
      expect(offeredTools(draftRequests(model, from)[0])).toEqual([ORDER_TOOL]);
      expect(draftRequests(model, from)).toHaveLength(1);
      expect(tools.count()).toBe(0);
      expect(await toolRunEventsOf(t, tenant, res.body.reply_id)).toEqual([]);
      // Final: the repeat gets the stored result without any model or tool call.
      const calls = model.calls.chat;
      const again = await tenant.request(tenant.body('approval'));
      expect(again.body).toEqual(storedFailureReplay(res.body));
      expect(model.calls.chat).toBe(calls);
      expect(tools.count()).toBe(0);
    },
  );

  it('assistant_tool_limit_reached when the composer keeps calling tools: exactly the budget is run', async () => {
    const tenant = await h.toolTenant('Tools budget', '/budget');
    tools.respond('/budget', toolReply.json({ status: 'shipped' }));
    const order = (request: { input: unknown }) =>
      `A${(request.input as DraftInput).tool_results.length + 1}`;
    model.script.respond('draft', (request) =>
      reply.toolCalls([{ name: ORDER_TOOL, arguments: { order_id: order(request) } }]),
    );
    const from = model.requests.length;
    const res = await tenant.request(tenant.body('budget'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expected('assistant_tool_limit_reached'));
    await expectStoredFailure(tenant, 'budget', res.body);
    expect(tools.count('/budget')).toBe(MAX_TOOL_CALLS_PER_REPLY);
    expect(tools.calls.map((c) => c.body)).toEqual(
      Array.from({ length: MAX_TOOL_CALLS_PER_REPLY }, (_, i) => ({ order_id: `A${i + 1}` })),
    );
    const drafts = draftRequests(model, from);
    expect(drafts).toHaveLength(MAX_TOOL_CALLS_PER_REPLY + 1);
    expect((drafts.at(-1)?.input as DraftInput).tool_results).toHaveLength(MAX_TOOL_CALLS_PER_REPLY);
    expect(model.requests.slice(from).filter((r) => r.role === 'review')).toHaveLength(0);
    const runs = await toolRunEventsOf(t, tenant, res.body.reply_id);
    expect(runs.filter((e) => e.type === 'ToolRunSucceeded')).toHaveLength(MAX_TOOL_CALLS_PER_REPLY);
    expect(runs).toHaveLength(2 * MAX_TOOL_CALLS_PER_REPLY);
  });

  it('assistant_tool_limit_reached when one answer asks for more calls than the budget: none is run', async () => {
    const tenant = await h.toolTenant('Tools burst', '/burst');
    tools.respond('/burst', toolReply.json({ status: 'shipped' }));
    const calls = Array.from({ length: MAX_TOOL_CALLS_PER_REPLY + 1 }, (_, i) => ({
      name: ORDER_TOOL,
      arguments: { order_id: `B${i}` },
    }));
    model.script.draft(reply.toolCalls(calls));
    const res = await tenant.request(tenant.body('burst'));
    expect(res.body).toEqual(expected('assistant_tool_limit_reached'));
    await expectStoredFailure(tenant, 'burst', res.body);
    expect(tools.count()).toBe(0);
    expect(await toolRunEventsOf(t, tenant, res.body.reply_id)).toEqual([]);
  });

  const closed = (properties: Record<string, unknown>) => ({
    type: 'object',
    properties,
    required: ['status'],
    additionalProperties: false,
  });
  const url = { type: 'string', maxLength: 512 };
  it.each([
    [
      'a smaller maxLength',
      { output_schema: closed({ status: { type: 'string', maxLength: 4 }, tracking_url: url }) },
    ],
    [
      'a removed field',
      {
        output_schema: closed({ status: { type: 'string', maxLength: 32 } }),
        linkable_fields: [],
        allowed_link_hosts: [],
      },
    ],
  ])(
    'external_agent_run_binding_invalid when a reclaimed attempt reuses a run the schema now rejects (%s)',
    async (why, patch) => {
      const tenant = await h.toolTenant(`Tools binding ${why}`, '/binding');
      tools.respond('/binding', toolReply.json(SHIPPED));
      model.script.draft(askA1(), citeToolDraft);
      model.script.review(reply.status(500));
      const key = 'binding';
      const first = await tenant.request(tenant.body(key));
      expect(first.body).toEqual(expected('semantic_review_unavailable'));
      expect(tools.count()).toBe(1);
      const stream = toolRunStream(tenant, first.body.reply_id, ORDER_TOOL, A1);
      const run = await t.stores.eventStore.readStream(stream);
      expect(run.map((e) => e.type)).toEqual(['ToolRunStarted', 'ToolRunSucceeded']);

      // The operator tightens the output schema: the stored output no longer passes it.
      const stricter = orderToolDefinition(tools.endpoint('/binding'), patch);
      const registered = await registerTool(t, tenant.organization_id, stricter);
      expect(registered).toMatchObject({ version: 2, enabled: true, changed: true });

      const from = model.requests.length;
      model.script.draft(askA1());
      const again = await tenant.request(tenant.body(key));
      expect(again.status).toBe(200);
      expect(again.body).toEqual(expected('external_agent_run_binding_invalid'));
      expect(again.body.reply_id).toBe(first.body.reply_id);
      expect(tools.count()).toBe(1);
      expect(draftRequests(model, from)).toHaveLength(1);
      expect(await t.stores.eventStore.readStream(stream)).toEqual(run);
      expect((await tenant.requestEvents(key)).map((e) => e.type)).toEqual([
        'ReplyRequested',
        'ReplyFailed',
        'ReplyRequestReclaimed',
        'ReplyFailed',
      ]);
      const failed = (await tenant.requestEvents(key)).at(-1);
      expect(failed?.data).toMatchObject({
        outcome: again.body.system_status,
        assistant_message_persisted: false,
      });
    },
  );
});
