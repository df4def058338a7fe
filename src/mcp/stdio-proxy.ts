import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AppError, ValidationFailedError } from '../common/errors';
import { displayUrl, redactUrlCredentials } from '../common/redact-url-credentials';

const USAGE = 'usage: cairn mcp --url URL --token TOKEN';

/** Connecting to the server failed (unreachable, or the token was refused): nothing was served. */
class UpstreamUnavailableError extends AppError {
  readonly status = 502;
  constructor(message: string) {
    super('mcp_upstream_unavailable', message);
  }
}

/** `--url` and `--token` (CAIRN_TOKEN when no --token); a usage_error otherwise. */
export function parseMcpArgs(args: string[], env: NodeJS.ProcessEnv): { endpoint: URL; token: string } {
  let values: { url?: string; token?: string };
  try {
    ({ values } = parseArgs({
      args,
      options: { url: { type: 'string' }, token: { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    throw new ValidationFailedError(`${USAGE} (${(error as Error).message})`, [], 'usage_error');
  }
  const token = values.token ?? env.CAIRN_TOKEN;
  if (!values.url || !token) {
    const missing = [!values.url ? '--url' : null, !token ? '--token' : null].filter((flag) => flag !== null);
    throw new ValidationFailedError(
      `${USAGE}: missing ${missing.join(', ')}`,
      missing.map((field) => ({ field, message: 'required' })),
      'usage_error',
    );
  }
  let endpoint: URL;
  try {
    endpoint = new URL(values.url);
  } catch {
    throw new ValidationFailedError(
      `${USAGE}: --url is not a URL`,
      [{ field: '--url', message: 'a URL' }],
      'usage_error',
    );
  }
  if (endpoint.username !== '' || endpoint.password !== '') {
    throw new ValidationFailedError(
      `${USAGE}: --url ${displayUrl(endpoint)} must not carry a user name or password (the connector token authenticates)`,
      [{ field: '--url', message: 'no user-info' }],
      'usage_error',
    );
  }
  if (!endpoint.pathname.replace(/\/+$/, '').endsWith('/mcp')) {
    endpoint.pathname = `${endpoint.pathname.replace(/\/+$/, '')}/mcp`;
  }
  return { endpoint, token };
}

/** How long closing the upstream connection may take once the session is over. */
const CLOSE_GRACE_MS = 300;

/**
 * `cairn mcp --url URL --token TOKEN`: an MCP server on stdin/stdout for local AI tools, forwarding every tool list
 * and call to the server's /mcp endpoint with the connector token (so the same capabilities, tenancy and tools).
 * Resolves once stdin has ended (the host closed the session) and the upstream connection is closed; the caller
 * exits. Nothing but the protocol is written to stdout.
 */
export async function runStdioProxy(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<void> {
  const { endpoint, token } = parseMcpArgs(args, env);
  const upstream = new Client({ name: 'cairn-stdio-proxy', version: '0.1.0' });
  try {
    await upstream.connect(
      new StreamableHTTPClientTransport(endpoint, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
  } catch (error) {
    const reason = redactUrlCredentials((error as Error).message);
    throw new UpstreamUnavailableError(`cannot use ${displayUrl(endpoint)}: ${reason}`);
  }
  // Listened to before the transport reads stdin, so an end that comes at once is not missed.
  const stdinEnded = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
    stdin.once('error', () => resolve());
  });
  const server = new Server({ name: 'cairn', version: '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => upstream.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => upstream.callTool(request.params));
  await server.connect(new StdioServerTransport());
  process.stderr.write(`cairn mcp: serving the tools of ${displayUrl(endpoint)} on stdio\n`);
  await stdinEnded;
  const closed = Promise.allSettled([server.close(), upstream.close()]);
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
}
