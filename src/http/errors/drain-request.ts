import type { IncomingMessage } from 'node:http';

/**
 * Reads and discards what is left of a refused request body (at most `maxBytes` more, for at most `maxMs`), then
 * calls `then` once: with true when the body was read to its end, false when it was longer than either bound (or
 * the client went away).
 * Answering only after the body is read keeps the client's upload from meeting a closed socket, which would reset
 * the connection and lose the error response (a client sees a dropped connection instead of the 413).
 */
export function drainRequestBody(
  request: IncomingMessage,
  maxBytes: number,
  maxMs: number,
  then: (drained: boolean) => void,
): void {
  if (request.complete || request.readableEnded || request.destroyed) {
    then(!request.destroyed);
    return;
  }
  let read = 0;
  let settled = false;
  const timer = setTimeout(() => settle(false), maxMs);
  const settle = (drained: boolean): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    request.removeListener('data', onData);
    request.removeListener('end', onEnd);
    request.removeListener('error', onFail);
    request.removeListener('close', onFail);
    if (!drained) request.pause();
    then(drained);
  };
  const onData = (chunk: Buffer): void => {
    read += chunk.length;
    if (read > maxBytes) settle(false);
  };
  const onEnd = (): void => settle(true);
  const onFail = (): void => settle(false);
  request.on('data', onData);
  request.on('end', onEnd);
  request.on('error', onFail);
  request.on('close', onFail);
  request.resume();
}
