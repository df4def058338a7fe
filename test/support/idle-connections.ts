import { connect, type Socket } from 'node:net';

export interface IdleConnectionsResult {
  /** Milliseconds from opening to the server closing each connection; null for one still open at the deadline. */
  closedAfterMs: Array<number | null>;
  /** How many got the server's `408 Request Timeout` before it closed them. */
  got408: number;
}

/**
 * Opens `count` TCP connections to `port` that never finish their headers (every other one sends nothing, the
 * rest half a request line and one header), and waits until the server has closed them all or `deadlineMs` passed.
 */
export async function idleConnections(
  port: number,
  count: number,
  deadlineMs: number,
): Promise<IdleConnectionsResult> {
  const sockets: Socket[] = [];
  let got408 = 0;
  const closes = await new Promise<Array<number | null>>((resolve, reject) => {
    const closedAfterMs: Array<number | null> = new Array<number | null>(count).fill(null);
    let closed = 0;
    const start = Date.now();
    const timer = setTimeout(() => resolve(closedAfterMs), deadlineMs);
    for (let i = 0; i < count; i++) {
      const socket = connect(port, '127.0.0.1');
      sockets.push(socket);
      socket.on('error', (error) => reject(error));
      socket.on('data', (data) => {
        if (data.toString('latin1').startsWith('HTTP/1.1 408')) got408++;
      });
      socket.on('close', () => {
        closedAfterMs[i] = Date.now() - start;
        if (++closed === count) {
          clearTimeout(timer);
          resolve(closedAfterMs);
        }
      });
      if (i % 2 === 1) socket.write('GET /health HTTP/1.1\r\nHost: cairn\r\n');
    }
  });
  for (const socket of sockets) socket.destroy();
  return { closedAfterMs: closes, got408 };
}
