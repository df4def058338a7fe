import {
  Injectable,
  SetMetadata,
  createParamDecorator,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { ForbiddenError, InternalError } from '../../common/errors';
import type { CommandContext } from '../../commands/shared/command-context';
import type { OperatorScope } from '../../commands/operator-tokens/operator-scopes';
import {
  bearerToken,
  OperatorTokens,
  type OperatorPrincipal,
} from '../../commands/operator-tokens/operator-tokens';

const SCOPE_KEY = 'cairn:required-operator-scope';

export type OperatorRequest = FastifyRequest & { operator?: OperatorPrincipal };

/** The scope an admin endpoint needs. Every admin handler declares one (the guard refuses a handler without). */
export const RequireScope = (scope: OperatorScope): MethodDecorator & ClassDecorator =>
  SetMetadata(SCOPE_KEY, scope);

/** The scope a handler declared (the console checks the same scopes). */
export function requiredScope(reflector: Reflector, context: ExecutionContext): OperatorScope | undefined {
  return reflector.getAllAndOverride<OperatorScope | undefined>(SCOPE_KEY, [
    context.getHandler(),
    context.getClass(),
  ]);
}

/** 403 `missing_scope` when the operator's token lacks `scope`. */
export function assertScope(operator: OperatorPrincipal, scope: OperatorScope): void {
  if (!operator.scopes.includes(scope)) {
    throw new ForbiddenError(`this operator token lacks the scope ${scope}`, 'missing_scope', [
      { message: `requires ${scope}`, scope },
    ]);
  }
}

/**
 * The admin API's guard: an operator token in `Authorization: Bearer` (401 without one, 401 for a connector
 * token or a revoked one), and the scope the handler declared (403 `missing_scope`).
 */
@Injectable()
export class OperatorAuthGuard implements CanActivate {
  constructor(
    private readonly tokens: OperatorTokens,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<OperatorRequest>();
    const operator = await this.tokens.authenticate(bearerToken(request.headers.authorization));
    const scope = requiredScope(this.reflector, context);
    if (scope === undefined) throw new InternalError('admin handler without RequireScope');
    assertScope(operator, scope);
    request.operator = operator;
    return true;
  }
}

/** The authenticated operator of this request (only behind OperatorAuthGuard or the console's guard). */
export const CurrentOperator = createParamDecorator(
  (_data: unknown, context: ExecutionContext): OperatorPrincipal => {
    const operator = context.switchToHttp().getRequest<OperatorRequest>().operator;
    if (!operator) throw new InternalError('CurrentOperator used without an operator guard');
    return operator;
  },
);

/** What an operator's request appends: the operator is the actor, the request id the correlation id. */
export function adminContext(operator: OperatorPrincipal, requestId?: string): CommandContext {
  return {
    actor: `operator:${operator.name}`,
    correlation_id: requestId ?? randomUUID(),
    causation_id: null,
  };
}
