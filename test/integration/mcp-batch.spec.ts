import { performance } from 'node:perf_hooks';
import { SearchMemoryHandler } from '../../src/queries/memory/search-memory.handler';
import type { SearchMemoryQuery } from '../../src/queries/memory/search-memory.query';
import { startModelApp } from '../support/reply-fixtures';
import { createReplyTenant } from '../support/reply-tenant';
import { http } from '../support/test-app';

const CALLS = 6;
/** How long each search holds the event loop here (longer than the 1 ms timer: it is due after each). */
const SEARCH_MS = 10;

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
      const handler = t.app.get(SearchMemoryHandler);
      const execute = handler.execute.bind(handler);
      // What the event loop did, in order: a search (one per tool call) or a timer's tick between them.
      const happened: Array<'search' | 'tick'> = [];
      const searched = jest.spyOn(handler, 'execute').mockImplementation((query: SearchMemoryQuery) => {
        happened.push('search');
        const until = performance.now() + SEARCH_MS;
        while (performance.now() < until) {
          // A costly search: synchronous work, as the embedded index does.
        }
        return execute(query);
      });
      const ticker = setInterval(() => {
        if (happened.at(-1) !== 'tick') happened.push('tick');
      }, 1);
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
      expect(searched).toHaveBeenCalledTimes(CALLS);
      // Run together, the calls held the loop from the first to the last (no timer ran between two of them); one
      // at a time, the loop turns between two calls. Counted, not timed: a loaded machine cannot change it.
      const searches = happened.filter((entry) => entry === 'search').length;
      expect(searches).toBe(CALLS);
      expect(happened.join(' ')).not.toContain('search search');
    } finally {
      await close();
    }
  });
});
