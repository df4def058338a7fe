import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cairn } from '../support/cli';
import { createConnector, createOrganization } from '../support/fixtures';
import { ingest } from '../support/memory-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

const BIN = join(__dirname, '..', '..', 'bin', 'cairn.js');

/** `npx cairn mcp --url … --token …`: a stdio MCP server (a real child process) forwarding to a running server. */
describe('cairn mcp (stdio MCP server for local AI tools)', () => {
  let t: TestApp;
  let token: string;
  let itemId: number;

  beforeAll(async () => {
    t = await startTestApp();
    const { organization_id } = await createOrganization(t.commands, 'Stdio');
    ({ token } = await createConnector(t.commands, organization_id, ['memory_search']));
    ({ memory_item_id: itemId } = await ingest(
      t.commands,
      organization_id,
      'Parking',
      'Parking is free after 18:00.',
    ));
  });
  afterAll(() => t.close());

  it('lists and calls the token’s tools through the server’s /mcp', async () => {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--url', t.baseUrl, '--token', token],
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'memory_search',
        'memory_fetch',
        'memory_report_usage',
      ]);
      const search = await client.callTool({ name: 'memory_search', arguments: { query: 'parking' } });
      expect(search.structuredContent).toMatchObject({ ok: true, results: [{ memory_item_id: itemId }] });
    } finally {
      await client.close();
    }
  });

  it('a missing option is a usage_error; a refused token is a JSON error before anything is served', async () => {
    const missing = await cairn(t.dataDir, 'mcp', '--url', t.baseUrl);
    expect(missing.code).toBe(1);
    expect(missing.json).toEqual({
      ok: false,
      error: {
        code: 'usage_error',
        message: 'usage: cairn mcp --url URL --token TOKEN: missing --token',
        details: [{ field: '--token', message: 'required' }],
      },
    });
    const refused = await cairn(t.dataDir, 'mcp', '--url', t.baseUrl, '--token', `cairn_${'0'.repeat(43)}`);
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({ ok: false, error: { code: 'mcp_upstream_unavailable' } });
    expect(refused.json.error.message).toContain('invalid_token');
  });
});
