import { Module } from '@nestjs/common';
import { HttpModule } from '../http/http.module';
import { McpController } from './mcp.controller';
import { McpStreams } from './mcp-streams';
import { McpToolbox } from './mcp-toolbox';

/** The MCP server: the REST API's tools over the same commands, queries, tokens and capabilities. */
@Module({ imports: [HttpModule], controllers: [McpController], providers: [McpToolbox, McpStreams] })
export class McpModule {}
