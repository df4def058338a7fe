import type { Client } from 'openapi-fetch';
import { dataOrThrow } from './errors.js';
import type { CallOptions } from './call-options.js';
import type { paths, SaveMemoryRequest, SaveMemoryResponse } from './types.js';

/** A fresh idempotency key (a random UUID). */
export const newIdempotencyKey = (): string => globalThis.crypto.randomUUID();

/**
 * The body with an `idempotency_key`: the caller's own, or a new random one. Every retry of a save must send the
 * same key (the server then replays the first save instead of storing a second note); to retry after a restart,
 * keep the returned body and send it again.
 */
export function withIdempotencyKey<T extends { idempotency_key?: string }>(
  body: T,
): T & { idempotency_key: string } {
  return { ...body, idempotency_key: body.idempotency_key || newIdempotencyKey() };
}

/** POST …/memory/save with an idempotency key (withIdempotencyKey), so the client's retries are safe. */
export function saveMemory(
  api: Client<paths>,
  body: SaveMemoryRequest,
  options: CallOptions = {},
): Promise<SaveMemoryResponse> {
  return api
    .POST('/app/api/tool-connectors/v1/memory/save', {
      body: withIdempotencyKey(body),
      ...(options.signal ? { signal: options.signal } : {}),
    })
    .then(dataOrThrow);
}
