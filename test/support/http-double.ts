import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the double does with the next request. */
export type DoubleStep =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  /** Ends the connection without an answer (the client sees a network error). */
  | 'drop'
  /** Never answers (until the client gives up or the double closes). */
  | 'hang';

export interface DoubleRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** True when the client went away before an answer. */
  aborted: boolean;
}

/**
 * A local HTTP server that answers from a script, one step per request (the last step repeats), and records every
 * request: the stand-in for a Cairn server in the typed client's retry tests.
 */
export class HttpDouble {
  readonly requests: DoubleRequest[] = [];
  private steps: DoubleStep[] = [{ status: 200, body: { ok: true } }];
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  baseUrl = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const record: DoubleRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          aborted: false,
        };
        this.requests.push(record);
        res.on('close', () => {
          if (!res.writableFinished) record.aborted = true;
        });
        const step = this.steps.length > 1 ? this.steps.shift()! : this.steps[0];
        if (step === 'drop') return void req.socket.destroy();
        if (step === 'hang') return void this.hanging.add(res);
        res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
        res.end(JSON.stringify(step.body ?? {}));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The answers to the next requests, in order; the last one answers every request after them. */
  script(...steps: DoubleStep[]): void {
    this.steps = steps;
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The error body Cairn answers a rate-limited request with. */
export const rateLimitedBody = (retryAfterMs: number): unknown => ({
  ok: false,
  error: {
    code: 'rate_limited',
    message: 'too many requests',
    details: [{ message: 'retry later', retryable: true, retry_after_ms: retryAfterMs }],
  },
});
