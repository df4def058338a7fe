import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The SDK's own MCP client over Streamable HTTP to `${baseUrl}/mcp`, with a bearer token. */
export async function connectMcp(baseUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: 'cairn-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** The JSON error body of a tool error (the REST API's error shape). */
export function toolError(outcome: unknown): unknown {
  const result = outcome as { isError?: boolean; content?: Array<{ type: string; text: string }> };
  expectTrue(result.isError === true && Array.isArray(result.content), 'expected a tool error');
  const [first] = result.content!;
  return JSON.parse(first.text) as unknown;
}

function expectTrue(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
