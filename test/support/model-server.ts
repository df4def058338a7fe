import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';

/**
 * A local OpenAI-compatible server for tests (driven through the real `openai` SDK). Embeddings: a deterministic
 * bag-of-concepts vector (words mapped through a small synonym table, hashed into DIMS dimensions), so
 * "doctor" and "physician" are close although they share no letters. Counts calls; can be told to fail.
 */
export const DIMS = 64;
const SYNONYMS: Record<string, string> = {
  doctor: 'physician',
  physician: 'physician',
  dentist: 'physician',
  medic: 'physician',
};

export interface ModelServer {
  url: string;
  calls: { embeddings: number };
  /** The next `count` embedding calls answer HTTP `status`. */
  failEmbeddings(count: number, status?: number): void;
  close(): Promise<void>;
}

export function conceptVector(text: string): number[] {
  const vector = new Array<number>(DIMS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const concept = SYNONYMS[word] ?? word.replace(/s$/, '');
    vector[createHash('sha256').update(concept).digest().readUInt32BE(0) % DIMS] += 1;
  }
  return vector;
}

export async function startModelServer(): Promise<ModelServer> {
  const calls = { embeddings: 0 };
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const send = (status: number, payload: unknown): void => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      if (request.method === 'POST' && request.url === '/v1/embeddings') {
        calls.embeddings += 1;
        if (failures.count > 0) {
          failures = { ...failures, count: failures.count - 1 };
          send(failures.status, { error: { message: 'scripted failure', type: 'server_error' } });
          return;
        }
        const parsed = JSON.parse(body) as { model: string; input: string | string[] };
        const inputs = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
        send(200, {
          object: 'list',
          model: parsed.model,
          data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: conceptVector(text) })),
          usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
        });
        return;
      }
      send(404, { error: { message: `no route ${request.method} ${request.url}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    calls,
    failEmbeddings(count, status = 500) {
      failures = { count, status };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
