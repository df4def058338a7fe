import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A real local assistant tool endpoint for tests: a node:http server on 127.0.0.1 and a random port (the tool
 * contract accepts plain http for loopback hosts only). Tools live at paths (`server.endpoint('/orders')`).
 *
 * Each POST takes, in order: the next queued step of its path (`server.queue(path, ...)`), else the path's
 * handler (`server.respond(path, step)`), else HTTP 404. Build steps with `toolReply.*`: a JSON body (any
 * status), raw text, an oversize body, a delay, or no answer at all. Every call is recorded in `calls` (with its
 * JSON body) before it is answered. Close it in afterAll.
 */

/** One call the server received. */
export interface ToolServerCall {
  path: string;
  method: string;
  /** The request body parsed as JSON (undefined when it is not JSON). */
  body: unknown;
  /** The request body as received. */
  raw: string;
  headers: IncomingMessage['headers'];
}

/** What the server does with one call. */
export type ToolAnswer =
  | { kind: 'json'; status: number; body: unknown; delayMs?: number }
  | { kind: 'text'; status: number; text: string; contentType: string; delayMs?: number }
  /** A 200 JSON body of about `bytes` bytes (one long string field), sent in chunks. */
  | { kind: 'oversize'; bytes: number; delayMs?: number }
  /** Never answers (until the client gives up or the server closes). */
  | { kind: 'hang' };

export type ToolHandler = (call: ToolServerCall) => ToolAnswer;
export type ToolStep = ToolAnswer | ToolHandler;

/** Builders of scripted answers. */
export const toolReply = {
  /** `status` (default 200) with `body` as JSON. */
  json: (body: unknown, status = 200): ToolAnswer => ({ kind: 'json', status, body }),
  /** Raw text (default `text/plain`), e.g. a body that is not JSON. */
  text: (text: string, contentType = 'text/plain', status = 200): ToolAnswer => ({
    kind: 'text',
    status,
    text,
    contentType,
  }),
  /** An HTTP error with a small JSON body. */
  status: (status: number): ToolAnswer => ({ kind: 'json', status, body: { error: `scripted ${status}` } }),
  oversize: (bytes: number): ToolAnswer => ({ kind: 'oversize', bytes }),
  hang: (): ToolAnswer => ({ kind: 'hang' }),
  /** `step` answered after `ms`. */
  slow:
    (ms: number, step: ToolStep): ToolHandler =>
    (call) => {
      const answer = typeof step === 'function' ? step(call) : step;
      return answer.kind === 'hang' ? answer : { ...answer, delayMs: ms };
    },
};

export interface ToolServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The absolute endpoint URL of `path` (`/orders` → `http://127.0.0.1:<port>/orders`). */
  endpoint(path: string): string;
  /** Every call, in arrival order. */
  calls: ToolServerCall[];
  /** Calls received at `path` (all paths when omitted). */
  count(path?: string): number;
  /** Queues answers for the next calls at `path`, consumed in order. */
  queue(path: string, ...steps: ToolStep[]): void;
  /** Answers every call at `path` (after its queue drains) until replaced; null removes it. */
  respond(path: string, step: ToolStep | null): void;
  /** Clears queues, handlers and recorded calls. */
  reset(): void;
  close(): Promise<void>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export async function startToolServer(): Promise<ToolServer> {
  const calls: ToolServerCall[] = [];
  const queues = new Map<string, ToolStep[]>();
  const handlers = new Map<string, ToolStep>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const later = (ms: number, action: () => void): void => {
    if (ms <= 0) return action();
    const timer = setTimeout(() => {
      timers.delete(timer);
      action();
    }, ms);
    timers.add(timer);
  };

  const answer = (response: ServerResponse, result: ToolAnswer): void => {
    if (result.kind === 'hang') return;
    later(result.delayMs ?? 0, () => {
      // The client may have given up (timeout, oversize) before a delayed answer.
      if (response.destroyed || response.writableEnded) return;
      if (result.kind === 'json') {
        response.writeHead(result.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(result.body));
      } else if (result.kind === 'text') {
        response.writeHead(result.status, { 'content-type': result.contentType });
        response.end(result.text);
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        const chunk = 'x'.repeat(16 * 1024);
        response.write('{"status":"');
        for (let sent = 0; sent < result.bytes && !response.destroyed; sent += chunk.length)
          response.write(chunk);
        if (!response.destroyed) response.end('"}');
      }
    });
  };

  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('error', () => undefined);
    response.on('error', () => undefined);
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0];
      const call: ToolServerCall = {
        path,
        method: request.method ?? '',
        body: parseJson(raw),
        raw,
        headers: request.headers,
      };
      calls.push(call);
      const step = queues.get(path)?.shift() ?? handlers.get(path) ?? toolReply.status(404);
      answer(response, typeof step === 'function' ? step(call) : step);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    endpoint: (path) => `${url}${path.startsWith('/') ? path : `/${path}`}`,
    calls,
    count: (path) => calls.filter((call) => path === undefined || call.path === path).length,
    queue: (path, ...steps) => void queues.set(path, [...(queues.get(path) ?? []), ...steps]),
    respond: (path, step) => void (step === null ? handlers.delete(path) : handlers.set(path, step)),
    reset() {
      queues.clear();
      handlers.clear();
      calls.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
