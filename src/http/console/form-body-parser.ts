import type { FastifyInstance } from 'fastify';
import { MalformedRequestError, UnsupportedMediaTypeError } from '../../common/errors';
import { CONSOLE_PATH } from './console-session';

/** A console form is small: a token, a reason, a few choices. */
const FORM_LIMIT = 16 * 1024;

/**
 * HTML forms (`application/x-www-form-urlencoded`) for the console's pages only: any other path answers 415 as
 * before (the JSON APIs take JSON only). Values are strings; a repeated field keeps its last value.
 */
export function registerConsoleFormParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(
    /^application\/x-www-form-urlencoded(?:\s*;.*)?$/i,
    { parseAs: 'string', bodyLimit: FORM_LIMIT },
    (request, body: string, done) => {
      if (!request.url.startsWith(`${CONSOLE_PATH}/`)) {
        done(new UnsupportedMediaTypeError('send application/json'), undefined);
        return;
      }
      try {
        done(null, Object.fromEntries(new URLSearchParams(body)));
      } catch {
        done(new MalformedRequestError('the form could not be read'), undefined);
      }
    },
  );
}
