/**
 * A local OpenAI-compatible embeddings server for the scale bench (node:http, 127.0.0.1): `POST /v1/embeddings`
 * answers TextEmbedding vectors (with the topical text's word meanings), whose dimension count is the model
 * name's last number (`bench-embed-384`).
 * Anything else is 404.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { TextEmbedding } from './text-embedding';
import { TopicalText } from './topical-text';

export interface EmbeddingServer {
  /** The OPENAI_BASE_URL (ends in `/v1`). */
  url: string;
  readonly calls: { embeddings: number; texts: number };
  close(): Promise<void>;
}

export async function startEmbeddingServer(): Promise<EmbeddingServer> {
  const models = new Map<number, TextEmbedding>();
  const topical = new TopicalText();
  const calls = { embeddings: 0, texts: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/embeddings') {
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"error":{"message":"no route"}}');
        return;
      }
      const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as {
        model: string;
        input: string | string[];
      };
      const dims = Number(/(\d+)$/.exec(body.model)?.[1] ?? 384);
      let model = models.get(dims);
      if (!model) models.set(dims, (model = new TextEmbedding(dims, topical.meaning)));
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      calls.embeddings += 1;
      calls.texts += inputs.length;
      const data = inputs.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: Array.from(model.embed(text)),
      }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          object: 'list',
          model: body.model,
          data,
          usage: { prompt_tokens: 0, total_tokens: 0 },
        }),
      );
    });
  });
  // Longer than the client keeps an idle connection: a reused socket is never closed under it (ECONNRESET).
  server.keepAliveTimeout = 120_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    calls,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The same server as a child process (embedding-server.child.ts); close() ends it. */
export async function startEmbeddingServerProcess(): Promise<{ url: string; close(): Promise<void> }> {
  const child = fork(join(__dirname, 'embedding-server.child.js'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`the embeddings server exited (${code})`)));
  });
  return {
    url,
    close: async () => {
      child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
