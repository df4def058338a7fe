import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { logUnexpectedError } from '../../observability/unexpected-errors';
import { drainRequestBody } from './drain-request';
import { mapError } from './error-response';

/** How much of a refused, too-large body is read and discarded before answering 413 and closing. */
export const MAX_DISCARDED_BODY_BYTES = 16 * 1024 * 1024;
/** … and for at most this long (a client that announces a body and sends it slowly does not hold the answer). */
export const MAX_DISCARD_MS = 10_000;

/** Every error leaves in the JSON error shape, with its mapped status and headers. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    sendError(host.switchToHttp().getResponse<FastifyReply>(), exception);
  }
}

export function sendError(reply: FastifyReply, exception: unknown): void {
  const mapped = mapError(exception);
  if (mapped.unexpected) logUnexpectedError(reply.request.id, exception);
  const send = (headers: Record<string, string>): void => {
    void reply
      .status(mapped.status)
      .headers(headers)
      .type('application/json; charset=utf-8')
      .send(mapped.body);
  };
  if (mapped.status !== 413) {
    send(mapped.headers);
    return;
  }
  // A body over the limit is read and discarded (up to a bound) before the 413 is sent, then the connection
  // closes: answering mid-upload would reset the connection and the client would never see the error.
  drainRequestBody(reply.request.raw, MAX_DISCARDED_BODY_BYTES, MAX_DISCARD_MS, () =>
    send({ ...mapped.headers, connection: 'close' }),
  );
}
