import { OperatorTokens } from '../../src/commands/operator-tokens/operator-tokens';
import { operatorContext } from '../../src/commands/shared/command-context';
import type { TestApp } from './test-app';

export const ADMIN = '/admin/api/v1';

/** An operator token with these scopes, created as `admin-token:create` does. */
export async function operatorToken(t: TestApp, scopes: string[], name = 'reviewer'): Promise<string> {
  return (await t.app.get(OperatorTokens).create(name, scopes, operatorContext('test'))).token;
}
