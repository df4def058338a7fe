import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  SubmitFeedbackCommand,
  type SubmitFeedbackResult,
} from '../../commands/replies/submit-feedback.command';
import { connectorContext } from '../../commands/shared/command-context';
import { RequestId } from '../request-id.param';
import { NotFoundError } from '../../common/errors';
import {
  ConnectorAuthGuard,
  CurrentConnector,
  RateLimited,
  RequireCapabilities,
} from '../auth/connector-auth.guard';
import type { ConnectorPrincipal } from '../auth/connector-principal';
import { SubmitFeedbackBody } from './feedback.dto';

/** Spec §4.7: feedback on a suggested reply. The organization always comes from the token. */
@ApiTags('assistant')
@ApiBearerAuth()
@Controller('app/api/tool-connectors/v1/assistant/replies')
@UseGuards(ConnectorAuthGuard)
export class FeedbackController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':message_id/feedback')
  @HttpCode(200)
  @RequireCapabilities('assistant_feedback')
  @RateLimited('writes')
  @ApiOperation({
    summary:
      'Send feedback on a suggested reply (404 when the message is unknown, not an assistant reply, or not this connector’s).',
  })
  submit(
    @CurrentConnector() connector: ConnectorPrincipal,
    @Param('message_id') id: string,
    @Body() body: SubmitFeedbackBody,
    @RequestId() requestId?: string,
  ): Promise<SubmitFeedbackResult> {
    // A path that is not a positive integer names no message: the same 404 as an unknown one.
    if (!/^[1-9]\d{0,15}$/.test(id) || !Number.isSafeInteger(Number(id))) {
      throw new NotFoundError('message not found', 'message_not_found');
    }
    return this.commands.execute(
      new SubmitFeedbackCommand(
        connector,
        Number(id),
        {
          outcome: body.outcome ?? null,
          rating: body.rating ?? null,
          feedback_kind: body.feedback_kind ?? null,
          feedback_issue: body.feedback_issue ?? null,
          suggested_answer: body.suggested_answer ?? null,
          note: body.note ?? null,
          external_feedback_id: body.external_feedback_id ?? null,
          idempotency_key: body.idempotency_key ?? null,
        },
        connectorContext(connector, requestId),
      ),
    );
  }
}
