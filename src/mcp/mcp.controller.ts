import { All, Controller, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConnectorAuthGuard, CurrentConnector } from '../http/auth/connector-auth.guard';
import type { ConnectorPrincipal } from '../http/auth/connector-principal';
import { McpToolbox } from './mcp-toolbox';

/**
 * MCP over Streamable HTTP at /mcp (stateless: each request carries the bearer token, checked like the REST API's:
 * 401 without one). The tools the token's capabilities allow, nothing else. Not part of the OpenAPI document.
 */
@ApiExcludeController()
@Controller('mcp')
@UseGuards(ConnectorAuthGuard)
export class McpController {
  constructor(private readonly toolbox: McpToolbox) {}

  @All()
  async handle(
    @CurrentConnector() connector: ConnectorPrincipal,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const server = this.toolbox.server(connector, request.id);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.hijack(); // the SDK writes the response itself
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  }
}
