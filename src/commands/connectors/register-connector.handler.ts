import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IdGenerator } from '../../common/id-generator';
import { streams } from '../../events/domain-event';
import { displayName } from '../shared/domain-values';
import { OrganizationLoader } from '../shared/organization-loader';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { connectorDecider } from './connector.decider';
import { generateClientKey, generateToken } from './connector-token';
import { RegisterConnectorCommand, type RegisterConnectorResult } from './register-connector.command';

@CommandHandler(RegisterConnectorCommand)
export class RegisterConnectorHandler implements ICommandHandler<
  RegisterConnectorCommand,
  RegisterConnectorResult
> {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly organizations: OrganizationLoader,
    private readonly ids: IdGenerator,
  ) {}

  async execute(command: RegisterConnectorCommand): Promise<RegisterConnectorResult> {
    const name = displayName(command.name);
    await this.organizations.require(command.organizationId);
    const connectorId = await this.ids.next('connector');
    const { token, issued } = generateToken();
    const clientKey = generateClientKey();
    const result = await this.executor.execute(
      streams.connector(connectorId),
      connectorDecider,
      {
        type: 'RegisterConnector',
        connector_id: connectorId,
        organization_id: command.organizationId,
        name,
        client_key: clientKey,
        capabilities: command.capabilities,
        grounding_policy: command.groundingPolicy,
        token: issued,
      },
      command.context,
      { organizationId: command.organizationId },
    );
    const state = result.state;
    return {
      connector_id: connectorId,
      client_key: clientKey,
      token,
      capabilities: state.exists ? state.capabilities : [],
      grounding_policy: command.groundingPolicy,
    };
  }
}
