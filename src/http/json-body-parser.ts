import type { FastifyInstance } from 'fastify';
import { AppError, MalformedRequestError } from '../common/errors';
import { assertJsonWithinBounds } from './body-bounds';
import { assertBodyHygiene } from './body-hygiene';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Replaces Fastify's body parsers: the body must be valid UTF-8 (no silent U+FFFD) and valid JSON (else 400),
 * within the structural bounds (depth, array and object sizes: 422 `body_bound_exceeded`, checked before parsing),
 * with no `__proto__` / `constructor` / `prototype` key, NUL character or lone surrogate anywhere (422
 * `validation_failed` naming the field). See docs/hardening.md.
 */
export function registerJsonBodyParser(fastify: FastifyInstance, bodyLimit: number): void {
  // JSON only: every other content type (text/plain included) is answered 415.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    /^application\/(?:[\w.+-]+\+)?json(?:\s*;.*)?$/i,
    { parseAs: 'buffer', bodyLimit },
    (_request, body: Buffer, done) => {
      let text: string;
      try {
        text = utf8.decode(body);
      } catch {
        done(new MalformedRequestError('the request body is not valid UTF-8', 'invalid_utf8'), undefined);
        return;
      }
      if (text.trim() === '') {
        done(new MalformedRequestError('the JSON body is empty', 'malformed_json'), undefined);
        return;
      }
      let parsed: unknown;
      try {
        assertJsonWithinBounds(text);
        // Plain JSON.parse defines `__proto__` as an own key (it never sets a prototype); the hygiene walk
        // refuses it, `constructor` and `prototype` with a 422 naming the field.
        parsed = JSON.parse(text);
      } catch (error) {
        done(
          error instanceof AppError
            ? error
            : new MalformedRequestError('the request body is not valid JSON', 'malformed_json'),
          undefined,
        );
        return;
      }
      try {
        assertBodyHygiene(parsed);
      } catch (error) {
        done(error as AppError, undefined);
        return;
      }
      done(null, parsed);
    },
  );
}
