import { log } from './log';

/** An error no mapping expected (a 500): one error line with the request's id and the stack, never the body. */
export function logUnexpectedError(requestId: string, exception: unknown): void {
  const message = exception instanceof Error ? exception.message : String(exception);
  const stack = exception instanceof Error ? exception.stack : undefined;
  log().error({ context: 'http', request_id: requestId, stack }, message);
}
