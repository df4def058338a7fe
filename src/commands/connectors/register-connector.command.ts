import type { GroundingPolicy } from '../../events/connectors/connector.events';
import type { CommandContext } from '../shared/command-context';

export class RegisterConnectorCommand {
  constructor(
    readonly organizationId: number,
    readonly name: string,
    readonly capabilities: string[],
    readonly groundingPolicy: GroundingPolicy,
    readonly context: CommandContext,
  ) {}
}

export interface RegisterConnectorResult {
  connector_id: number;
  client_key: string;
  /** Shown once; only its SHA-256 is stored. */
  token: string;
  capabilities: string[];
  grounding_policy: GroundingPolicy;
}
