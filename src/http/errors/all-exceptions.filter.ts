import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { mapError } from './error-response';

/** Every error leaves in the JSON error shape, with its mapped status and headers. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    sendError(reply, exception, this.logger);
  }
}

export function sendError(reply: FastifyReply, exception: unknown, logger: Logger): void {
  const mapped = mapError(exception);
  if (mapped.unexpected) {
    logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
  }
  void reply
    .status(mapped.status)
    .headers(mapped.headers)
    .type('application/json; charset=utf-8')
    .send(mapped.body);
}
