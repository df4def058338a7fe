import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { ForbiddenError, NotFoundError } from '../common/errors';
import { rateLimitClassOf, requiredCapabilities } from '../http/auth/connector-auth.guard';
import { ConnectorRateLimiter } from '../http/auth/connector-rate-limiter';
import type { ConnectorPrincipal } from '../http/auth/connector-principal';
import { mapError } from '../http/errors/error-response';
import { MemoryController } from '../http/memory/memory.controller';
import { OpenApiDocumentHolder } from '../http/openapi-document';
import { FeedbackController } from '../http/replies/feedback.controller';
import { ReplyController } from '../http/replies/reply.controller';
import { strictValidationPipe } from '../http/validation';
import { MCP_TOOLS, type Controllers, type McpToolDefinition } from './mcp-tools';
import { toolSchema } from './tool-schemas';

type Json = { [key: string]: unknown };

/**
 * The MCP tools of one connector: listed only for the capabilities its token holds, called through the REST
 * controllers (same commands, queries, defaults), arguments validated by the same DTOs, errors mapped by the one
 * HTTP error mapper (the body of the error the REST API would answer, as a tool error).
 */
@Injectable()
export class McpToolbox {
  private readonly pipe = strictValidationPipe();
  private cachedControllers: Controllers | null = null;
  private readonly listings = new Map<string, Tool>();

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly document: OpenApiDocumentHolder,
    private readonly rateLimiter: ConnectorRateLimiter,
  ) {}

  /**
   * A server for one authenticated connector (one per HTTP request: the token is checked on every request).
   *
   * Its tool calls run one at a time, each after a turn of the event loop. A JSON-RPC batch (up to the SDK's 100
   * messages) reaches the handlers all at once, and a search's index work is synchronous: run together, a batch of
   * 100 costly searches held the event loop for 10 s (every other request of the process, `/health` included,
   * waited that long). Queued, other requests are served between two calls.
   */
  server(connector: ConnectorPrincipal, requestId?: string): Server {
    const server = new Server({ name: 'cairn', version: '0.1.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: this.toolsFor(connector).map((tool) => this.listing(tool)),
    }));
    let previous: Promise<unknown> = Promise.resolve();
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const turn = previous
        .then(nextTurnOfEventLoop)
        .then(() => this.call(connector, request.params.name, request.params.arguments ?? {}, requestId));
      // call() answers errors as tool results; nothing here rejects, but the queue must not stop if it did.
      previous = turn.catch(() => undefined);
      return turn;
    });
    return server;
  }

  private controllers(): Controllers {
    this.cachedControllers ??= {
      memory: this.moduleRef.get(MemoryController, { strict: false }),
      reply: this.moduleRef.get(ReplyController, { strict: false }),
      feedback: this.moduleRef.get(FeedbackController, { strict: false }),
    };
    return this.cachedControllers;
  }

  private allowed(connector: ConnectorPrincipal, tool: McpToolDefinition): string[] {
    return requiredCapabilities(tool.handler(this.controllers())).filter(
      (capability) => !connector.capabilities.includes(capability),
    );
  }

  private toolsFor(connector: ConnectorPrincipal): McpToolDefinition[] {
    return MCP_TOOLS.filter((tool) => this.allowed(connector, tool).length === 0);
  }

  private listing(tool: McpToolDefinition): Tool {
    let listed = this.listings.get(tool.name);
    if (!listed) {
      const document = this.document.get();
      const parts = tool.input.map(({ schema }) =>
        typeof schema === 'string' ? toolSchema(document, schema) : schema,
      );
      listed = {
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: mergeObjectSchemas(parts) as Tool['inputSchema'],
        outputSchema: toolSchema(document, tool.output) as Tool['outputSchema'],
        annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
      };
      this.listings.set(tool.name, listed);
    }
    return listed;
  }

  private async call(
    connector: ConnectorPrincipal,
    name: string,
    args: Record<string, unknown>,
    requestId?: string,
  ): Promise<CallToolResult> {
    try {
      const tool = MCP_TOOLS.find((candidate) => candidate.name === name);
      if (!tool) throw new NotFoundError(`no tool ${name}`, 'tool_not_found');
      const missing = this.allowed(connector, tool);
      if (missing.length > 0) {
        throw new ForbiddenError(
          `this connector lacks the capability ${missing.join(', ')}`,
          'missing_capability',
          missing.map((capability) => ({ message: `requires ${capability}`, capability })),
        );
      }
      // The same budget as the REST endpoint the tool stands for (429 rate_limited as a tool error).
      const rateClass = rateLimitClassOf(tool.handler(this.controllers()));
      if (rateClass !== undefined) await this.rateLimiter.hit(connector.token_id, rateClass);
      const valid = await this.validate(tool, args);
      const result = await tool.call(this.controllers(), connector, valid, requestId);
      return {
        structuredContent: result as Record<string, unknown>,
        content: [{ type: 'text', text: JSON.stringify(result) }],
      };
    } catch (error) {
      const { body } = mapError(error);
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
    }
  }

  /** Each part's DTO validates its arguments (the last part takes those no other part named). */
  private async validate(
    tool: McpToolDefinition,
    args: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const named = new Set(tool.input.flatMap((part) => part.keys ?? []));
    const validated: Record<string, unknown> = {};
    for (const part of tool.input) {
      const own = part.keys
        ? Object.fromEntries(Object.entries(args).filter(([key]) => part.keys!.includes(key)))
        : Object.fromEntries(Object.entries(args).filter(([key]) => !named.has(key)));
      const value: unknown = await this.pipe.transform(own, { type: 'body', metatype: part.dto });
      Object.assign(validated, value);
    }
    return validated;
  }
}

/** Resolves in the event loop's next check phase: I/O waiting since (other requests) is polled before it. */
function nextTurnOfEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** One object schema from several (properties and required lists joined; closed). */
function mergeObjectSchemas(parts: Json[]): Json {
  if (parts.length === 1) return parts[0];
  const properties = Object.assign({}, ...parts.map((part) => part.properties as Json));
  const required = parts.flatMap((part) => (part.required as string[] | undefined) ?? []);
  const defs = Object.assign({}, ...parts.map((part) => (part.$defs as Json | undefined) ?? {}));
  return {
    type: 'object',
    properties,
    required,
    additionalProperties: false,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}
