import {
  Injectable,
  SetMetadata,
  createParamDecorator,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ForbiddenError, InternalError } from '../../common/errors';
import type { RateLimitClass } from '../../config/config';
import { ConnectorAuthenticator } from './connector-authenticator';
import type { ConnectorPrincipal } from './connector-principal';
import { ConnectorRateLimiter } from './connector-rate-limiter';

const CAPABILITIES_KEY = 'cairn:required-capabilities';
const RATE_CLASS_KEY = 'cairn:rate-limit-class';

type AuthenticatedRequest = FastifyRequest & { connector?: ConnectorPrincipal };

/** Declares the capabilities a connector endpoint needs (all of them). */
export const RequireCapabilities = (...capabilities: string[]): MethodDecorator & ClassDecorator =>
  SetMetadata(CAPABILITIES_KEY, capabilities);

/** The capabilities a handler declared with RequireCapabilities (the MCP tools reuse them). */
export function requiredCapabilities(handler: object): string[] {
  return new Reflector().get<string[] | undefined>(CAPABILITIES_KEY, handler as () => unknown) ?? [];
}

/** The rate-limit class a handler declared with RateLimited (the MCP tools count against it too), or undefined. */
export function rateLimitClassOf(handler: object): RateLimitClass | undefined {
  return new Reflector().get<RateLimitClass | undefined>(RATE_CLASS_KEY, handler as () => unknown);
}

/** Declares the rate-limit class a connector endpoint counts against (per token and minute). */
export const RateLimited = (rateClass: RateLimitClass): MethodDecorator & ClassDecorator =>
  SetMetadata(RATE_CLASS_KEY, rateClass);

/**
 * 401 without a valid token (with WWW-Authenticate), 403 when a required capability is missing, 429 when the
 * token spent its budget for the endpoint's rate-limit class.
 */
@Injectable()
export class ConnectorAuthGuard implements CanActivate {
  constructor(
    private readonly authenticator: ConnectorAuthenticator,
    private readonly reflector: Reflector,
    private readonly rateLimiter: ConnectorRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const principal = await this.authenticator.authenticate(request.headers.authorization);
    const required =
      this.reflector.getAllAndOverride<string[] | undefined>(CAPABILITIES_KEY, [
        context.getHandler(),
        context.getClass(),
      ]) ?? [];
    const missing = required.filter((capability) => !principal.capabilities.includes(capability));
    if (missing.length > 0) {
      throw new ForbiddenError(
        `this connector lacks the capability ${missing.join(', ')}`,
        'missing_capability',
        missing.map((capability) => ({ message: `requires ${capability}`, capability })),
      );
    }
    const rateClass = this.reflector.getAllAndOverride<RateLimitClass | undefined>(RATE_CLASS_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (rateClass !== undefined) await this.rateLimiter.hit(principal.token_id, rateClass);
    request.connector = principal;
    return true;
  }
}

/** The authenticated connector of this request (use only behind ConnectorAuthGuard). */
export const CurrentConnector = createParamDecorator(
  (_data: unknown, context: ExecutionContext): ConnectorPrincipal => {
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().connector;
    if (!principal) throw new InternalError('CurrentConnector used without ConnectorAuthGuard');
    return principal;
  },
);
