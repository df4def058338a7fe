import type { DraftInput, ReviewInput } from '../../src/ai/reply-model-contract';
import { canonicalDigest } from '../../src/commands/shared/canonical-digest';
import { operatorContext } from '../../src/commands/shared/command-context';
import { SetToolEnabledCommand } from '../../src/commands/tools/set-tool-enabled.command';
import { offeredTools } from '../support/model-server';
import { createReplyTenant, expectedNonAnswer as expected, type ReplyTenant } from '../support/reply-tenant';
import {
  citeToolDraft,
  draftRequests,
  expectStoredFailure,
  grantTools,
  ORDER_TOOL,
  orderToolDefinition,
  registerTool,
  storedDefinition,
  toolRunEventsOf,
  toolRunStream,
} from '../support/tool-fixtures';
import { A1, askA1, startToolHarness, type ToolHarness } from '../support/tool-harness';
import { toolReply } from '../support/tool-server';

/**
 * Assistant tools through the real HTTP path (spec §4.6 rule 10), with a real local tool endpoint: what the
 * composer is offered, a tool run from call to receipt, replay bound to the tool capability, and a tool that
 * times out or fails. The tool system_status codes: reply-tools-codes.spec.ts; unsafe output:
 * reply-tools-safety.spec.ts.
 */
const SHIPPED = { tracking_url: 'https://track.example.com/A1', status: 'shipped' };
/** SHIPPED as projected: declared fields in schema order, the link normalized. */
const PROJECTED = { status: 'shipped', tracking_url: 'https://track.example.com/A1' };

describe('assistant tools in replies over HTTP (spec §4.6 rule 10)', () => {
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

  const types = async (tenant: ReplyTenant, key: string) =>
    (await tenant.requestEvents(key)).map((e) => e.type);

  it('runs a tool: validated input reaches the endpoint, the projected output is cited, reviewed and bound', async () => {
    const tenant = await h.toolTenant('Tools happy', '/happy');
    tools.respond('/happy', toolReply.json(SHIPPED));
    const from = model.requests.length;
    model.script.draft(askA1(), citeToolDraft);
    const res = await tenant.request(tenant.body('happy'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, grounding: { idempotent_replay: false } });
    expect(res.body.suggested_response.text).toContain('shipped');
    expect(res.body.references.map((r: { memory_item_id: number }) => r.memory_item_id)).toEqual([
      tenant.memory_item_id,
    ]);

    expect(tools.calls).toHaveLength(1);
    expect(tools.calls[0]).toMatchObject({ path: '/happy', method: 'POST', body: A1 });
    expect(tools.calls[0].headers['content-type']).toBe('application/json');

    const definition = await storedDefinition(t, tenant.organization_id, ORDER_TOOL);
    const run = await t.stores.eventStore.readStream(
      toolRunStream(tenant, res.body.reply_id, ORDER_TOOL, A1),
    );
    expect(run.map((e) => e.type)).toEqual(['ToolRunStarted', 'ToolRunSucceeded']);
    const tool_run_id = run[0].data.tool_run_id as number;
    const reference_id = `tool-run:${tool_run_id}`;
    const key = { tool_run_id, organization_id: tenant.organization_id, reply_id: res.body.reply_id };
    expect(run[0].data).toMatchObject({
      ...key,
      connector_id: tenant.connector_id,
      tool_key: ORDER_TOOL,
      input: A1,
      input_sha256: canonicalDigest(A1),
      definition_sha256: canonicalDigest(definition),
    });
    expect(run[1].data).toMatchObject({
      ...key,
      output: PROJECTED,
      output_sha256: canonicalDigest(PROJECTED),
    });

    const drafts = draftRequests(model, from);
    expect(drafts).toHaveLength(2);
    expect(drafts[0].body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: ORDER_TOOL,
          description: 'Looks up the status of an order',
          parameters: definition.input_schema,
          strict: true,
        },
      },
    ]);
    expect((drafts[0].input as DraftInput).tool_results).toEqual([]);
    expect((drafts[1].input as DraftInput).tool_results).toEqual([
      { reference_id, tool_key: ORDER_TOOL, output: PROJECTED },
    ]);

    const events = await tenant.requestEvents('happy');
    expect(events.map((e) => e.type)).toEqual(['ReplyRequested', 'ReplyCompleted']);
    const receipt = events[1].data.receipt as { tool_evidence: unknown };
    expect(receipt.tool_evidence).toEqual([
      {
        tool_key: ORDER_TOOL,
        tool_run_id,
        input_sha256: canonicalDigest(A1),
        output_sha256: canonicalDigest(PROJECTED),
        output_schema_sha256: canonicalDigest(definition.output_schema),
      },
    ]);

    const reviews = model.requests.slice(from).filter((r) => r.role === 'review');
    expect(reviews).toHaveLength(1);
    const review = reviews[0].input as ReviewInput;
    expect(review.evidence).toContainEqual({ reference_id, excerpt: JSON.stringify(PROJECTED) });
    expect(review.evidence).toHaveLength(2);
    expect(review.claims.map((c) => c.reference_ids)).toEqual([[expect.any(String)], [reference_id]]);
  });

  it('offers no tools without assistant_tool:<key>; a tool it was not offered cannot be called', async () => {
    const tenant = await createReplyTenant(t, 'Tools ungranted');
    await registerTool(t, tenant.organization_id, orderToolDefinition(tools.endpoint('/ungranted')));
    tools.respond('/ungranted', toolReply.json(SHIPPED));
    const from = model.requests.length;
    const ok = await tenant.request(tenant.body('ungranted'));
    expect(ok.status).toBe(200);
    expect(ok.body.ok).toBe(true);
    const [draft] = draftRequests(model, from);
    expect(draft.body.tools).toBeUndefined();
    const events = await tenant.requestEvents('ungranted');
    expect(events.map((e) => e.type)).toEqual(['ReplyRequested', 'ReplyCompleted']);
    expect((events[1].data.receipt as { tool_evidence: unknown }).tool_evidence).toEqual([]);

    model.script.draft(askA1());
    const rogue = await tenant.request(tenant.body('ungranted-call'));
    expect(rogue.status).toBe(200);
    expect(rogue.body).toEqual(expected('assistant_answer_incomplete'));
    await expectStoredFailure(tenant, 'ungranted-call', rogue.body);
    expect(tools.count()).toBe(0);
    expect(await toolRunEventsOf(t, tenant, rogue.body.reply_id)).toEqual([]);
  });

  it('offers only enabled tools: a disabled tool is not offered even with its capability', async () => {
    const tenant = await createReplyTenant(t, 'Tools disabled');
    const other = orderToolDefinition(tools.endpoint('/stock'), { key: 'stock_level' });
    await registerTool(t, tenant.organization_id, orderToolDefinition(tools.endpoint('/off')), false);
    await registerTool(t, tenant.organization_id, other);
    await grantTools(t, tenant, [ORDER_TOOL, 'stock_level']);
    const from = model.requests.length;
    expect((await tenant.request(tenant.body('one-enabled'))).body.ok).toBe(true);
    expect(offeredTools(draftRequests(model, from)[0])).toEqual(['stock_level']);

    await t.commands.execute(
      new SetToolEnabledCommand(tenant.organization_id, 'stock_level', false, operatorContext('test')),
    );
    const next = model.requests.length;
    expect((await tenant.request(tenant.body('none-enabled'))).body.ok).toBe(true);
    expect(draftRequests(model, next)[0].body.tools).toBeUndefined();
    expect(tools.count()).toBe(0);
  });

  it('a reply that used a tool replays only while the connector holds assistant_tool:<key> and the tool is enabled', async () => {
    const tenant = await h.toolTenant('Tools replay', '/replay');
    tools.respond('/replay', toolReply.json(SHIPPED));
    model.script.draft(askA1(), citeToolDraft);
    const done = await tenant.request(tenant.body('replay'));
    expect(done.body).toMatchObject({ ok: true, grounding: { idempotent_replay: false } });
    // A reply of the same connector that used no tool, for contrast.
    const plain = await tenant.request(tenant.body('replay-plain'));
    expect(plain.body.ok).toBe(true);
    const calls = model.calls.chat;
    const replayed = { ...done.body, grounding: { ...done.body.grounding, idempotent_replay: true } };

    const again = await tenant.request(tenant.body('replay'));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(replayed);

    await grantTools(t, tenant, []);
    const revoked = await tenant.request(tenant.body('replay'));
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({
      ...expected('completed_reply_no_longer_available'),
      reply_id: done.body.reply_id,
    });
    expect((await tenant.request(tenant.body('replay-plain'))).body.grounding.idempotent_replay).toBe(true);

    await grantTools(t, tenant, [ORDER_TOOL]);
    expect((await tenant.request(tenant.body('replay'))).body).toEqual(replayed);

    // A disabled tool's replies are not replayed either; enabling it again restores them.
    const setEnabled = (enabled: boolean) =>
      t.commands.execute(
        new SetToolEnabledCommand(tenant.organization_id, ORDER_TOOL, enabled, operatorContext('test')),
      );
    await setEnabled(false);
    expect((await tenant.request(tenant.body('replay'))).body.system_status.code).toBe(
      'completed_reply_no_longer_available',
    );
    await setEnabled(true);
    expect((await tenant.request(tenant.body('replay'))).body).toEqual(replayed);
    expect(model.calls.chat).toBe(calls);
    expect(tools.count()).toBe(1);
    expect(await types(tenant, 'replay')).toEqual(['ReplyRequested', 'ReplyCompleted']);
  });

  it.each([
    ['times out', toolReply.slow(1500, toolReply.json(SHIPPED)), /timed out after 200 ms/],
    ['answers HTTP 500', toolReply.status(500), /HTTP 500/],
  ])(
    'assistant_runtime_failed when the tool %s: the run is recorded failed; a repeat runs the tool again',
    async (why, answer, reason) => {
      const tenant = await h.toolTenant(`Tools down ${why}`, '/down', { timeout_ms: 200 });
      tools.queue('/down', answer);
      tools.respond('/down', toolReply.json(SHIPPED));
      model.script.draft(askA1());
      const res = await tenant.request(tenant.body('down'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected('assistant_runtime_failed'));
      await expectStoredFailure(tenant, 'down', res.body);
      const stream = toolRunStream(tenant, res.body.reply_id, ORDER_TOOL, A1);
      const failed = await t.stores.eventStore.readStream(stream);
      expect(failed.map((e) => e.type)).toEqual(['ToolRunStarted', 'ToolRunFailed']);
      expect(failed[1].data).toMatchObject({ failure: 'unavailable', path: null });
      expect(failed[1].data.reason).toMatch(reason);

      // Retryable: the repeat is reclaimed and the read-only call is made again on the same run stream.
      model.script.draft(askA1(), citeToolDraft);
      const again = await tenant.request(tenant.body('down'));
      expect(again.body).toMatchObject({ ok: true, reply_id: res.body.reply_id });
      expect(tools.count('/down')).toBe(2);
      const run = await t.stores.eventStore.readStream(stream);
      expect(run.map((e) => e.type)).toEqual([
        'ToolRunStarted',
        'ToolRunFailed',
        'ToolRunStarted',
        'ToolRunSucceeded',
      ]);
      expect(run[2].data.tool_run_id).not.toBe(run[0].data.tool_run_id);
    },
  );
});
