import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { logUnexpectedError } from '../../observability/unexpected-errors';
import { mapError } from '../errors/error-response';
import { CONSOLE_PATH } from './console-session';
import { CONSOLE_HEADERS } from './pages/console-layout';
import { consoleErrorPage } from './pages/login-page';

/**
 * Console errors as pages, from the one error mapping (mapError): a missing or invalid session goes to the sign-in
 * page (303); every other error is a page with its status and message.
 */
@Catch()
export class ConsoleErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const mapped = mapError(exception);
    if (mapped.unexpected) logUnexpectedError(reply.request.id, exception);
    if (mapped.status === 401) {
      void reply.status(303).headers(CONSOLE_HEADERS).header('location', `${CONSOLE_PATH}/login`).send();
      return;
    }
    void reply
      .status(mapped.status)
      .headers({ ...mapped.headers, ...CONSOLE_HEADERS })
      .type('text/html; charset=utf-8')
      .send(consoleErrorPage(mapped.status, mapped.body.error.message));
  }
}
