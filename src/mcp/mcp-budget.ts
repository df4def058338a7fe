/**
 * How many JSON-RPC requests of one `POST /mcp` body count against the token's search budget: every request
 * (`initialize`, `tools/list`, `ping`, an unknown method…) except `tools/call`, which counts against the class of
 * the tool it calls (McpToolbox). Notifications and responses carry no `id` and are not counted.
 */
export function searchBudgetRequests(body: unknown): number {
  const messages = Array.isArray(body) ? (body as unknown[]) : [body];
  return messages.filter((message) => {
    if (message === null || typeof message !== 'object') return false;
    const { method } = message as { method?: unknown };
    return 'id' in message && typeof method === 'string' && method !== 'tools/call';
  }).length;
}
