import type { CommandBus } from '@nestjs/cqrs';
import {
  ChangeConnectorCommand,
  type ChangeConnectorResult,
  type ConnectorChange,
} from '../../src/commands/connectors/change-connector.command';
import {
  RegisterConnectorCommand,
  type RegisterConnectorResult,
} from '../../src/commands/connectors/register-connector.command';
import {
  RegisterOrganizationCommand,
  type RegisterOrganizationResult,
} from '../../src/commands/organizations/register-organization.command';
import { operatorContext } from '../../src/commands/shared/command-context';

let counter = 0;

/** Registers an organization (unique slug) through the real command bus. */
export async function createOrganization(
  commands: CommandBus,
  name = 'Org',
): Promise<RegisterOrganizationResult> {
  counter += 1;
  return commands.execute(
    new RegisterOrganizationCommand(`${name} ${counter}`, null, null, operatorContext('test')),
  );
}

export async function createConnector(
  commands: CommandBus,
  organizationId: number,
  capabilities: string[],
): Promise<RegisterConnectorResult> {
  return commands.execute(
    new RegisterConnectorCommand(
      organizationId,
      'Connector',
      capabilities,
      'strict',
      operatorContext('test'),
    ),
  );
}

export async function changeConnector(
  commands: CommandBus,
  organizationId: number,
  connectorId: number,
  change: ConnectorChange,
): Promise<ChangeConnectorResult> {
  return commands.execute(
    new ChangeConnectorCommand(organizationId, connectorId, change, operatorContext('test')),
  );
}
