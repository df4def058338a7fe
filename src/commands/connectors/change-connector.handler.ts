import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InternalError } from '../../common/errors';
import { streams } from '../../events/domain-event';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { ChangeConnectorCommand, type ChangeConnectorResult } from './change-connector.command';
import { connectorDecider, type ConnectorCommand } from './connector.decider';
import { generateToken } from './connector-token';

@CommandHandler(ChangeConnectorCommand)
export class ChangeConnectorHandler implements ICommandHandler<
  ChangeConnectorCommand,
  ChangeConnectorResult
> {
  constructor(private readonly executor: StreamCommandExecutor) {}

  async execute(command: ChangeConnectorCommand): Promise<ChangeConnectorResult> {
    const organization_id = command.organizationId;
    const change = command.change;
    let decided: ConnectorCommand;
    let token: string | undefined;
    if (change.type === 'RotateToken') {
      const fresh = generateToken();
      token = fresh.token;
      decided = { type: 'RotateToken', organization_id, token: fresh.issued };
    } else {
      decided = { ...change, organization_id };
    }
    const result = await this.executor.execute(
      streams.connector(command.connectorId),
      connectorDecider,
      decided,
      command.context,
      { organizationId: organization_id },
    );
    const state = result.state;
    if (!state.exists) throw new InternalError('connector vanished');
    const revoked = result.events.find((event) => event.type === 'ConnectorTokenRevoked');
    return {
      connector_id: state.connector_id,
      changed: result.events.length > 0,
      capabilities: state.capabilities,
      grounding_policy: state.grounding_policy,
      active_token_id: state.active_token?.token_id ?? null,
      ...(token ? { token } : {}),
      ...(change.type === 'RevokeToken'
        ? { revoked_token_id: revoked?.type === 'ConnectorTokenRevoked' ? revoked.data.token_id : null }
        : {}),
    };
  }
}
