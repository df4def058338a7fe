import type { FastifyInstance } from 'fastify';
import secureJsonParse from 'secure-json-parse';
import { MalformedRequestError } from '../common/errors';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Replaces Fastify's body parsers: the body must be valid UTF-8 (no silent U+FFFD), valid JSON, and free of
 * `__proto__` / `constructor.prototype` keys (prototype poisoning). Each failure is a 400 in the JSON error shape.
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
      try {
        done(
          null,
          secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }),
        );
      } catch (error) {
        const poisoned = error instanceof SyntaxError && /prototype/i.test(error.message);
        done(
          poisoned
            ? new MalformedRequestError(
                'the JSON body contains a forbidden key (__proto__ or constructor.prototype)',
                'forbidden_key',
              )
            : new MalformedRequestError('the request body is not valid JSON', 'malformed_json'),
          undefined,
        );
      }
    },
  );
}
