import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * The request's id (its `X-Request-Id`, honoured or generated: observability/request-id.ts), for the command
 * context: the events a request appends carry it as their `correlation_id`, and its log lines as `request_id`.
 */
export const RequestId = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string =>
    context.switchToHttp().getRequest<FastifyRequest>().id,
);
