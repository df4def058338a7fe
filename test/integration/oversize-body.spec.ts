/**
 * Issue 20: a body over CAIRN_MAX_BODY_BYTES always gets the 413 JSON error. The client here behaves like many
 * HTTP clients: it uploads the whole body before it reads the response. The server must read and discard the
 * body (up to a bound) before answering, or the connection is reset and the response lost.
 */
import { connect } from 'node:net';
import { MEMORY } from '../support/memory-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

interface RawResult {
  response: string;
  error: string | null;
}

/** Sends headers and `size` bytes of body in 64 KiB writes, then (only then) reads the whole response. */
function uploadThenRead(port: number, size: number, chunked: boolean): Promise<RawResult> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.pause();
    const received: Buffer[] = [];
    let error: string | null = null;
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => resolve({ response: Buffer.concat(received).toString('utf8'), error }));
    const framing = chunked ? 'transfer-encoding: chunked' : `content-length: ${size}`;
    socket.write(
      `POST ${MEMORY}/search HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n${framing}\r\n\r\n`,
    );
    const piece = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const writeMore = (): void => {
      while (sent < size && !socket.destroyed) {
        const n = Math.min(piece.length, size - sent);
        sent += n;
        const data = chunked
          ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), piece.subarray(0, n), Buffer.from('\r\n')])
          : piece.subarray(0, n);
        if (!socket.write(data)) {
          socket.once('drain', writeMore);
          return;
        }
      }
      if (chunked && !socket.destroyed) socket.write('0\r\n\r\n');
      // Give the server time to answer, then read what arrived.
      setTimeout(() => {
        socket.on('data', (chunk: Buffer) => received.push(chunk));
        socket.resume();
      }, 300);
    };
    writeMore();
  });
}

describe('a body over the limit always gets the 413 JSON error (issue 20)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp({ CAIRN_MAX_BODY_BYTES: '4096' });
    port = Number(new URL(t.baseUrl).port);
  });
  afterAll(async () => t.close());

  it.each([
    ['Content-Length', false],
    ['chunked', true],
  ])(
    '%s: 4 MiB uploaded before reading → 413 payload_too_large, connection closed',
    async (_name, chunked) => {
      const before = await t.stores.eventStore.headPosition();
      const { response, error } = await uploadThenRead(port, 4 * 1024 * 1024, chunked);
      expect(error).toBeNull();
      const [head, body] = response.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 413 /);
      expect(head).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(body!)).toEqual({
        ok: false,
        error: { code: 'payload_too_large', message: 'request body too large', details: [] },
      });
      expect(await t.stores.eventStore.headPosition()).toBe(before);
    },
  );
});
