import { All, Controller, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConnectorAuthGuard, CurrentConnector } from '../http/auth/connector-auth.guard';
import type { ConnectorPrincipal } from '../http/auth/connector-principal';
import { ConnectorRateLimiter } from '../http/auth/connector-rate-limiter';
import { searchBudgetRequests } from './mcp-budget';
import { McpStreams } from './mcp-streams';
import { McpToolbox } from './mcp-toolbox';

/**
 * MCP over Streamable HTTP at /mcp (stateless: each request carries the bearer token, checked like the REST API's:
 * 401 without one). The tools the token's capabilities allow, nothing else. Not part of the OpenAPI document.
 * Refusals before the SDK takes over (rate limit, stream cap) are the REST API's error responses.
 */
@ApiExcludeController()
@Controller('mcp')
@UseGuards(ConnectorAuthGuard)
export class McpController {
  constructor(
    private readonly toolbox: McpToolbox,
    private readonly rateLimiter: ConnectorRateLimiter,
    private readonly streams: McpStreams,
  ) {}

  @All()
  async handle(
    @CurrentConnector() connector: ConnectorPrincipal,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    for (let i = searchBudgetRequests(request.body); i > 0; i--) {
      await this.rateLimiter.hit(connector.token_id, 'search');
    }
    const releaseStream = request.method === 'GET' ? this.streams.claim(connector.token_id) : null;
    const server = this.toolbox.server(connector, request.id);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // The SDK writes the response itself: the headers Fastify's hooks set (CORS, X-Request-Id) go on the raw one.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    reply.hijack();
    // A GET stream carries nothing in this stateless server (every answer comes on its POST): closed when idle.
    const idle = releaseStream ? setTimeout(() => void transport.close(), this.streams.idleMs) : null;
    reply.raw.on('close', () => {
      if (idle) clearTimeout(idle);
      releaseStream?.();
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  }
}
