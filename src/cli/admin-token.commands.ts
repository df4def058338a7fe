import { Command, Option } from 'nest-commander';
import { OPERATOR_SCOPES } from '../commands/operator-tokens/operator-scopes';
import { OperatorTokens } from '../commands/operator-tokens/operator-tokens';
import { operatorContext } from '../commands/shared/command-context';
import { expectArgs, parseList, requireOption } from './cli-args';
import { JsonCommand } from './json-command';

@Command({
  name: 'admin-token:create',
  description:
    'Create an operator token for the admin API and console → {token_id, name, scopes, token} (the token is ' +
    'shown once; only its SHA-256 is stored)',
})
export class AdminTokenCreateCommand extends JsonCommand {
  constructor(private readonly tokens: OperatorTokens) {
    super();
  }

  protected execute(params: string[], options: { name?: string; scopes?: string[] }): Promise<object> {
    expectArgs(params, 0, 'admin-token:create --scopes a,b|all [--name N]');
    return this.tokens.create(
      options.name ?? process.env.USER ?? 'operator',
      requireOption(options.scopes, '--scopes'),
      operatorContext(),
    );
  }

  @Option({ flags: '--name <name>', description: 'who holds it (the actor of what it changes)' })
  parseName(value: string): string {
    return value;
  }

  @Option({ flags: '--scopes <list>', description: `comma-separated: ${OPERATOR_SCOPES.join(', ')}, or all` })
  parseScopes(value: string): string[] {
    return parseList(value);
  }
}

@Command({
  name: 'admin-token:list',
  description: 'Operator tokens → {tokens: [{token_id, name, scopes, revoked}]}',
})
export class AdminTokenListCommand extends JsonCommand {
  constructor(private readonly tokens: OperatorTokens) {
    super();
  }

  protected async execute(params: string[]): Promise<object> {
    expectArgs(params, 0, 'admin-token:list');
    return { tokens: await this.tokens.list() };
  }
}

@Command({
  name: 'admin-token:revoke',
  arguments: '<TOKEN_ID>',
  description: 'Revoke an operator token; it stops at once → {token_id, changed}',
})
export class AdminTokenRevokeCommand extends JsonCommand {
  constructor(private readonly tokens: OperatorTokens) {
    super();
  }

  protected execute(params: string[]): Promise<object> {
    expectArgs(params, 1, 'admin-token:revoke TOKEN_ID');
    return this.tokens.revoke(params[0], operatorContext());
  }
}
