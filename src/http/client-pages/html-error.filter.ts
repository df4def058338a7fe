import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { logUnexpectedError } from '../../observability/unexpected-errors';
import { mapError } from '../errors/error-response';
import { errorPage } from './pages/error-page';
import { HTML_CONTENT_TYPE, HTML_HEADERS } from './pages/layout';

/**
 * Errors of the HTML pages, as pages for people: the status, headers (`Retry-After` on 429) and message come
 * from the one error mapping (mapError); only the rendering differs from the JSON API.
 */
@Catch()
export class HtmlErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const mapped = mapError(exception);
    if (mapped.unexpected) logUnexpectedError(reply.request.id, exception);
    void reply
      .status(mapped.status)
      .headers({ ...mapped.headers, ...HTML_HEADERS, 'cache-control': 'no-store' })
      .type(HTML_CONTENT_TYPE)
      .send(errorPage(mapped.status, mapped.body.error.message, mapped.body.error.details));
  }
}
