import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../common/errors';
import { streams } from '../../events/domain-event';
import { OrganizationLoader } from '../shared/organization-loader';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { SetToolEnabledCommand, type SetToolEnabledResult } from './set-tool-enabled.command';
import { isToolKey, toolDecider } from './tool.decider';

@CommandHandler(SetToolEnabledCommand)
export class SetToolEnabledHandler implements ICommandHandler<SetToolEnabledCommand, SetToolEnabledResult> {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly organizations: OrganizationLoader,
  ) {}

  async execute(command: SetToolEnabledCommand): Promise<SetToolEnabledResult> {
    await this.organizations.require(command.organizationId);
    // A string that cannot be a tool key names no tool (and never becomes part of a stream name).
    if (!isToolKey(command.toolKey)) throw new NotFoundError('tool not found', 'tool_not_found');
    const result = await this.executor.execute(
      streams.tool(command.organizationId, command.toolKey),
      toolDecider,
      {
        type: command.enabled ? 'EnableTool' : 'DisableTool',
        organization_id: command.organizationId,
        tool_key: command.toolKey,
      },
      command.context,
      { organizationId: command.organizationId },
    );
    return { tool_key: command.toolKey, enabled: command.enabled, changed: result.events.length > 0 };
  }
}
