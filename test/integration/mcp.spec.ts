import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { changeConnector, createConnector, createOrganization } from '../support/fixtures';
import { ingest } from '../support/memory-fixtures';
import { connectMcp, toolError } from '../support/mcp-client';
import type { ModelServer } from '../support/model-server';
import { startModelApp } from '../support/reply-fixtures';
import { createReplyTenant, QUESTION, type ReplyTenant } from '../support/reply-tenant';
import { http, type TestApp } from '../support/test-app';

/** The MCP server at /mcp, driven by the official SDK's client over real HTTP. */
describe('MCP server (/mcp, Streamable HTTP)', () => {
  let model: ModelServer;
  let t: TestApp;
  let close: () => Promise<void>;
  let tenant: ReplyTenant;
  let mcp: Client;
  const open: Client[] = [];

  beforeAll(async () => {
    ({ model, t, close } = await startModelApp());
    tenant = await createReplyTenant(t);
    mcp = await connectMcp(t.baseUrl, tenant.token);
    open.push(mcp);
  });
  afterAll(async () => {
    await Promise.all(open.map((client) => client.close()));
    await close();
  });

  it('refuses a request without a token or with a bad one: 401, WWW-Authenticate, the JSON error', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const headers = { accept: 'application/json, text/event-stream' };
    const missing = await http(t.baseUrl, 'POST', '/mcp', { body: init, headers });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="cairn"');
    expect(missing.body).toEqual({
      ok: false,
      error: { code: 'missing_token', message: expect.any(String), details: [] },
    });
    const bad = await http(t.baseUrl, 'POST', '/mcp', {
      body: init,
      headers,
      token: `cairn_${'0'.repeat(43)}`,
    });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('invalid_token');
    await expect(connectMcp(t.baseUrl, 'cairn_not-a-token')).rejects.toThrow();
  });

  it('lists only the tools the token’s capabilities allow, with input and output schemas', async () => {
    const { tools } = await mcp.listTools();
    // The reply tenant holds assistant_reply, assistant_feedback and memory_search.
    expect(tools.map((tool) => tool.name)).toEqual([
      'memory_search',
      'memory_fetch',
      'memory_report_usage',
      'reply_request',
      'reply_feedback',
    ]);
    // Models read the descriptions and schemas, and have no spec to look "§4.1" up in.
    expect(JSON.stringify(tools)).not.toMatch(/§|\bspec\b/i);
    const search = tools.find((tool) => tool.name === 'memory_search')!;
    expect(search.inputSchema).toMatchObject({
      type: 'object',
      required: ['query'],
      properties: { limit: { type: 'integer', minimum: 1, maximum: 100 } },
    });
    expect(search.outputSchema).toMatchObject({ type: 'object', required: ['ok', 'trace_id', 'results'] });
    expect(search.annotations?.readOnlyHint).toBe(true);
    const feedback = tools.find((tool) => tool.name === 'reply_feedback')!;
    expect(feedback.inputSchema.required).toEqual(['message_id']);
    expect(feedback.inputSchema.properties).toHaveProperty('suggested_answer');

    const writer = await createConnector(t.commands, tenant.organization_id, [
      'memory_save',
      'memory_propose',
    ]);
    const writerMcp = await connectMcp(t.baseUrl, writer.token);
    open.push(writerMcp);
    expect((await writerMcp.listTools()).tools.map((tool) => tool.name)).toEqual([
      'memory_save',
      'memory_forget',
      'memory_propose',
    ]);
  });

  it('search, fetch and usage: the REST results as structured content', async () => {
    const search = await mcp.callTool({
      name: 'memory_search',
      arguments: { query: 'clinic open', limit: 5 },
    });
    const found = search.structuredContent as {
      ok: boolean;
      trace_id: number;
      results: Array<{ memory_item_id: number }>;
    };
    expect(found.ok).toBe(true);
    expect(found.results.map((item) => item.memory_item_id)).toEqual([tenant.memory_item_id]);
    expect(JSON.parse((search.content as Array<{ text: string }>)[0].text)).toEqual(found);
    const item = await mcp.callTool({
      name: 'memory_fetch',
      arguments: { memory_item_id: tenant.memory_item_id },
    });
    expect(item.structuredContent).toMatchObject({
      memory_item_id: tenant.memory_item_id,
      content: expect.stringContaining('Monday'),
    });
    const usage = await mcp.callTool({
      name: 'memory_report_usage',
      arguments: { trace_id: found.trace_id, used_item_ids: [tenant.memory_item_id] },
    });
    expect(usage.structuredContent).toEqual({ ok: true });
  });

  it('a reply and feedback on it, through the same commands as REST', async () => {
    const result = await mcp.callTool({
      name: 'reply_request',
      arguments: tenant.body('mcp-1') as Record<string, unknown>,
    });
    const replied = result.structuredContent as {
      ok: boolean;
      message_id: number;
      suggested_response: { text: string };
    };
    expect(replied.ok).toBe(true);
    expect(replied.suggested_response.text).toContain('Monday to Friday');
    expect(model.requests.length).toBeGreaterThan(0);
    // The same identity over REST is the same request: a replay.
    const rest = await tenant.request(tenant.body('mcp-1'));
    expect(rest.body).toMatchObject({
      ok: true,
      message_id: replied.message_id,
      grounding: { idempotent_replay: true },
    });
    const feedback = await mcp.callTool({
      name: 'reply_feedback',
      arguments: { message_id: replied.message_id, outcome: 'accepted', external_feedback_id: 'mcp-fb' },
    });
    expect(feedback.structuredContent).toMatchObject({ ok: true, outcome: 'accepted', rating: 'up' });
  });

  it('errors are the REST errors: validation (422 body), a missing capability, another tenant’s item', async () => {
    const invalid = await mcp.callTool({
      name: 'memory_search',
      arguments: { query: 'x', limit: 0, extra: 1 },
    });
    expect(toolError(invalid)).toMatchObject({
      ok: false,
      error: {
        code: 'validation_failed',
        details: expect.arrayContaining([
          expect.objectContaining({ field: 'limit' }),
          expect.objectContaining({ field: 'extra' }),
        ]),
      },
    });
    const forbidden = await mcp.callTool({
      name: 'memory_save',
      arguments: { kind: 'handoff', title: 't', content: 'c' },
    });
    expect(toolError(forbidden)).toMatchObject({ ok: false, error: { code: 'missing_capability' } });
    const other = await createOrganization(t.commands, 'Other');
    const foreign = await ingest(
      t.commands,
      other.organization_id,
      'Secret plan',
      'Only for the other organization.',
    );
    const notVisible = await mcp.callTool({
      name: 'memory_fetch',
      arguments: { memory_item_id: foreign.memory_item_id },
    });
    expect(toolError(notVisible)).toMatchObject({ ok: false, error: { code: 'memory_item_not_found' } });
    const unknownMessage = await mcp.callTool({
      name: 'reply_feedback',
      arguments: { message_id: 999999, outcome: 'accepted', external_feedback_id: 'x' },
    });
    expect(toolError(unknownMessage)).toMatchObject({ error: { code: 'message_not_found' } });
  });

  it('capability changes and revocation take effect on the next request (the token is checked on every one)', async () => {
    const reader = await createConnector(t.commands, tenant.organization_id, [
      'memory_search',
      'memory_save',
    ]);
    const readerMcp = await connectMcp(t.baseUrl, reader.token);
    open.push(readerMcp);
    expect((await readerMcp.listTools()).tools.map((tool) => tool.name)).toContain('memory_save');
    await changeConnector(t.commands, tenant.organization_id, reader.connector_id, {
      type: 'SetCapabilities',
      capabilities: ['memory_search'],
    });
    expect((await readerMcp.listTools()).tools.map((tool) => tool.name)).toEqual([
      'memory_search',
      'memory_fetch',
      'memory_report_usage',
    ]);
    const save = await readerMcp.callTool({
      name: 'memory_save',
      arguments: { kind: 'handoff', title: 't', content: QUESTION },
    });
    expect(toolError(save)).toMatchObject({ error: { code: 'missing_capability' } });
    await changeConnector(t.commands, tenant.organization_id, reader.connector_id, { type: 'RevokeToken' });
    await expect(readerMcp.listTools()).rejects.toThrow(/invalid_token/);
  });
});
