import { performance } from 'node:perf_hooks';
import type { SearchQuery } from '../../src/infrastructure/search/search-index.port';
import { startModelApp } from '../support/reply-fixtures';
import { createReplyTenant } from '../support/reply-tenant';
import { http } from '../support/test-app';

const CALLS = 6;
/** How long each search holds the event loop here (the embedded index's work is synchronous). */
const SEARCH_MS = 40;

/**
 * A JSON-RPC batch of tool calls (the SDK accepts up to 100) must not hold the event loop for the whole batch: a
 * blind attack sent 100 costly searches in one POST /mcp and every other request of the process (`/health`
 * included) waited 10 s.
 */
describe('MCP: a batch of tool calls', () => {
  it('runs its calls one at a time, with the event loop free between two calls', async () => {
    const { t, close } = await startModelApp();
    try {
      const tenant = await createReplyTenant(t, 'MCP batch');
      const index = t.stores.searchIndex;
      const search = index.search.bind(index);
      const searched = jest.spyOn(index, 'search').mockImplementation(async (query: SearchQuery) => {
        const until = performance.now() + SEARCH_MS;
        while (performance.now() < until) {
          // A costly search: synchronous work, as the embedded index does.
        }
        return search(query);
      });
      let last = performance.now();
      let longestGap = 0;
      const ticker = setInterval(() => {
        const now = performance.now();
        longestGap = Math.max(longestGap, now - last);
        last = now;
      }, 5);
      const batch = Array.from({ length: CALLS }, (_, n) => ({
        jsonrpc: '2.0',
        id: n + 1,
        method: 'tools/call',
        params: { name: 'memory_search', arguments: { query: 'open hours' } },
      }));
      let res;
      try {
        res = await http(t.baseUrl, 'POST', '/mcp', {
          body: batch,
          token: tenant.token,
          headers: { accept: 'application/json, text/event-stream' },
        });
      } finally {
        clearInterval(ticker);
      }
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(CALLS);
      for (const answer of res.body as Array<{ id: number; result: { isError?: boolean } }>) {
        expect(answer.result.isError).toBeFalsy();
      }
      expect(searched.mock.calls.length).toBeGreaterThanOrEqual(CALLS);
      // Run together the calls held the loop at least CALLS × SEARCH_MS (240 ms); one at a time, about one call.
      expect(longestGap).toBeLessThan((CALLS * SEARCH_MS) / 2);
    } finally {
      await close();
    }
  });
});
