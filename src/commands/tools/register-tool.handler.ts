import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../common/clock';
import { InternalError } from '../../common/errors';
import { streams } from '../../events/domain-event';
import { parseToolDefinition } from '../../tools/tool-definition';
import { OrganizationLoader } from '../shared/organization-loader';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { RegisterToolCommand, type RegisterToolResult } from './register-tool.command';
import { toolDecider } from './tool.decider';

@CommandHandler(RegisterToolCommand)
export class RegisterToolHandler implements ICommandHandler<RegisterToolCommand, RegisterToolResult> {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly organizations: OrganizationLoader,
    private readonly clock: Clock,
  ) {}

  async execute(command: RegisterToolCommand): Promise<RegisterToolResult> {
    const definition = parseToolDefinition(command.definition);
    await this.organizations.require(command.organizationId);
    const result = await this.executor.execute(
      streams.tool(command.organizationId, definition.key),
      toolDecider,
      {
        type: 'RegisterTool',
        organization_id: command.organizationId,
        definition,
        registered_at: this.clock.nowIso(),
      },
      command.context,
      { organizationId: command.organizationId },
    );
    if (!result.state.exists) throw new InternalError('tool registration left no tool');
    return {
      tool_key: result.state.tool_key,
      enabled: result.state.enabled,
      version: result.state.version,
      changed: result.events.length > 0,
    };
  }
}
