import { connectMcp, toolError } from '../support/mcp-client';
import { startModelApp } from '../support/reply-fixtures';
import { createReplyTenant } from '../support/reply-tenant';

/** MCP tools count against the same per-token budget as the REST endpoints they stand for. */
describe('MCP tools and connector rate limits', () => {
  it('a search tool past the search budget is a rate_limited tool error, like the REST 429', async () => {
    // Three: the client's `initialize` counts too (test/integration/mcp-streams.spec.ts), then two searches.
    const { t, close } = await startModelApp({ CAIRN_RATE_LIMIT_SEARCH: '3' });
    try {
      const tenant = await createReplyTenant(t, 'MCP limits');
      const mcp = await connectMcp(t.baseUrl, tenant.token);
      try {
        const search = () => mcp.callTool({ name: 'memory_search', arguments: { query: 'open' } });
        expect((await search()).isError).toBeFalsy();
        expect((await search()).isError).toBeFalsy();
        const third = await search();
        expect(toolError(third)).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
      } finally {
        await mcp.close();
      }
    } finally {
      await close();
    }
  });
});
