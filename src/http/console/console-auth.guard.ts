import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InternalError } from '../../common/errors';
import { OperatorTokens } from '../../commands/operator-tokens/operator-tokens';
import { assertScope, requiredScope, type OperatorRequest } from '../admin/operator-auth.guard';
import { assertCsrf, sessionToken } from './console-session';

export type ConsoleRequest = OperatorRequest & { consoleToken?: string };

/**
 * The console's guard: the operator token of the session cookie (401, shown as the sign-in page, without a valid
 * one), the scope the handler declared (403), and on every POST the form's CSRF token (403 `csrf_failed`).
 */
@Injectable()
export class ConsoleAuthGuard implements CanActivate {
  constructor(
    private readonly tokens: OperatorTokens,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    const token = sessionToken(request);
    const operator = await this.tokens.authenticate(token);
    const scope = requiredScope(this.reflector, context);
    if (scope === undefined) throw new InternalError('console handler without RequireScope');
    if (request.method === 'POST') {
      const body = request.body as Record<string, unknown> | undefined;
      assertCsrf(request, token as string, body?.csrf);
    }
    assertScope(operator, scope);
    request.operator = operator;
    request.consoleToken = token;
    return true;
  }
}
