import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InternalError } from '../../common/errors';
import { streams } from '../../events/domain-event';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { ChangeOrganizationCommand, type ChangeOrganizationResult } from './change-organization.command';
import { organizationDecider } from './organization.decider';

@CommandHandler(ChangeOrganizationCommand)
export class ChangeOrganizationHandler implements ICommandHandler<
  ChangeOrganizationCommand,
  ChangeOrganizationResult
> {
  constructor(private readonly executor: StreamCommandExecutor) {}

  async execute(command: ChangeOrganizationCommand): Promise<ChangeOrganizationResult> {
    const result = await this.executor.execute(
      streams.organization(command.organizationId),
      organizationDecider,
      command.change,
      command.context,
      { organizationId: command.organizationId },
    );
    if (!result.state.exists) throw new InternalError('organization vanished');
    return {
      organization_id: result.state.organization_id,
      agent_activity_paused: result.state.agent_activity_paused,
      monthly_reply_limit: result.state.monthly_reply_limit,
      changed: result.events.length > 0,
    };
  }
}
