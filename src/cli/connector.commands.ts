import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Command, Option } from 'nest-commander';
import { FIXED_CAPABILITIES } from '../commands/connectors/capabilities';
import {
  ChangeConnectorCommand,
  type ChangeConnectorResult,
  type ConnectorChange,
} from '../commands/connectors/change-connector.command';
import { GroundingPolicyPreviewer } from '../commands/connectors/preview-grounding-policy';
import {
  RegisterConnectorCommand,
  type RegisterConnectorResult,
} from '../commands/connectors/register-connector.command';
import { operatorContext } from '../commands/shared/command-context';
import type { GroundingPolicy } from '../events/connectors/connector.events';
import { expectArgs, oneOf, parseId, parseList, requireOption } from './cli-args';
import { JsonCommand } from './json-command';

const POLICIES = ['strict', 'standard'] as const;
const CAPABILITY_HELP = `comma-separated: ${FIXED_CAPABILITIES.join(', ')}, assistant_tool:<tool-key>`;

@Command({
  name: 'connector:create',
  arguments: '<ORG>',
  description: 'Register a connector → {connector_id, client_key, token}',
})
export class ConnectorCreateCommand extends JsonCommand {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected execute(
    params: string[],
    options: { name?: string; capabilities?: string[]; groundingPolicy?: GroundingPolicy },
  ): Promise<object> {
    expectArgs(
      params,
      1,
      'connector:create ORG --name N --capabilities a,b,c [--grounding-policy strict|standard]',
    );
    return this.commands.execute<RegisterConnectorCommand, RegisterConnectorResult>(
      new RegisterConnectorCommand(
        parseId(params[0], 'ORG'),
        requireOption(options.name, '--name'),
        requireOption(options.capabilities, '--capabilities'),
        options.groundingPolicy ?? 'strict',
        operatorContext(),
      ),
    );
  }

  @Option({ flags: '--name <name>', description: 'display name' })
  parseName(value: string): string {
    return value;
  }

  @Option({ flags: '--capabilities <list>', description: CAPABILITY_HELP })
  parseCapabilities(value: string): string[] {
    return parseList(value);
  }

  @Option({ flags: '--grounding-policy <policy>', description: 'strict (default) or standard' })
  parseGroundingPolicy(value: string): GroundingPolicy {
    return oneOf(value, POLICIES, '--grounding-policy');
  }
}

/** Decorated so its subclasses inherit the constructor's injection metadata. */
@Injectable()
abstract class ConnectorChangeCommand extends JsonCommand {
  constructor(protected readonly commands: CommandBus) {
    super();
  }

  protected change(params: string[], change: ConnectorChange): Promise<ChangeConnectorResult> {
    return this.commands.execute<ChangeConnectorCommand, ChangeConnectorResult>(
      new ChangeConnectorCommand(
        parseId(params[0], 'ORG'),
        parseId(params[1], 'CONNECTOR'),
        change,
        operatorContext(),
      ),
    );
  }
}

@Command({
  name: 'connector:rotate-token',
  arguments: '<ORG> <CONNECTOR>',
  description: 'Issue a new token; the old one stops at once → {token}',
})
export class ConnectorRotateTokenCommand extends ConnectorChangeCommand {
  protected async execute(params: string[]): Promise<object> {
    expectArgs(params, 2, 'connector:rotate-token ORG CONNECTOR');
    const result = await this.change(params, { type: 'RotateToken' });
    return { connector_id: result.connector_id, token: result.token, token_id: result.active_token_id };
  }
}

@Command({
  name: 'connector:revoke-token',
  arguments: '<ORG> <CONNECTOR>',
  description: 'Revoke the active token',
})
export class ConnectorRevokeTokenCommand extends ConnectorChangeCommand {
  protected async execute(params: string[]): Promise<object> {
    expectArgs(params, 2, 'connector:revoke-token ORG CONNECTOR');
    const result = await this.change(params, { type: 'RevokeToken' });
    return { connector_id: result.connector_id, revoked_token_id: result.revoked_token_id ?? null };
  }
}

@Command({
  name: 'connector:set-capabilities',
  arguments: '<ORG> <CONNECTOR>',
  description: 'Replace the capability set',
})
export class ConnectorSetCapabilitiesCommand extends ConnectorChangeCommand {
  protected async execute(params: string[], options: { capabilities?: string[] }): Promise<object> {
    expectArgs(params, 2, 'connector:set-capabilities ORG CONNECTOR --capabilities a,b,c');
    const result = await this.change(params, {
      type: 'SetCapabilities',
      capabilities: requireOption(options.capabilities, '--capabilities'),
    });
    return { connector_id: result.connector_id, capabilities: result.capabilities, changed: result.changed };
  }

  @Option({ flags: '--capabilities <list>', description: CAPABILITY_HELP })
  parseCapabilities(value: string): string[] {
    return parseList(value);
  }
}

@Command({
  name: 'tool-connectors:set-grounding-policy',
  arguments: '<ORG> <CONNECTOR>',
  description: 'Preview (--dry-run) or set a connector grounding policy; changes connector policy only',
})
export class SetGroundingPolicyCommand extends ConnectorChangeCommand {
  constructor(
    commands: CommandBus,
    private readonly previewer: GroundingPolicyPreviewer,
  ) {
    super(commands);
  }

  protected async execute(
    params: string[],
    options: { policy?: GroundingPolicy; dryRun?: boolean },
  ): Promise<object> {
    expectArgs(
      params,
      2,
      'tool-connectors:set-grounding-policy ORG CONNECTOR --policy=standard|strict [--dry-run]',
    );
    const policy = requireOption(options.policy, '--policy');
    if (options.dryRun)
      return this.previewer.preview(parseId(params[0], 'ORG'), parseId(params[1], 'CONNECTOR'), policy);
    const result = await this.change(params, { type: 'SetGroundingPolicy', grounding_policy: policy });
    return {
      dry_run: false,
      connector_id: result.connector_id,
      grounding_policy: result.grounding_policy,
      changed: result.changed,
    };
  }

  @Option({ flags: '--policy <policy>', description: 'standard or strict' })
  parsePolicy(value: string): GroundingPolicy {
    return oneOf(value, POLICIES, '--policy');
  }

  @Option({ flags: '--dry-run', description: 'print what would change and change nothing' })
  parseDryRun(): boolean {
    return true;
  }
}
