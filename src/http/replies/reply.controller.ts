import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { connectorContext } from '../../commands/shared/command-context';
import { RequestId } from '../request-id.param';
import { RequestReplyCommand, type ReplyResultBody } from '../../commands/replies/request-reply.command';
import {
  ConnectorAuthGuard,
  CurrentConnector,
  RateLimited,
  RequireCapabilities,
} from '../auth/connector-auth.guard';
import type { ConnectorPrincipal } from '../auth/connector-principal';
import { ReplyRequestBody } from './reply.dto';

/** Spec §4.6: a reviewed, grounded suggested reply, or a typed system_status (both HTTP 200). */
@ApiTags('assistant')
@ApiBearerAuth()
@Controller('app/api/tool-connectors/v1/assistant/replies')
@UseGuards(ConnectorAuthGuard)
export class ReplyController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(200)
  @RequireCapabilities('assistant_reply')
  @RateLimited('replies')
  @ApiOperation({ summary: 'Request a suggested reply to the latest message of an external thread.' })
  request(
    @CurrentConnector() connector: ConnectorPrincipal,
    @Body() body: ReplyRequestBody,
    @RequestId() requestId?: string,
  ): Promise<ReplyResultBody> {
    return this.commands.execute(
      new RequestReplyCommand(connector, body, connectorContext(connector, requestId)),
    );
  }
}
