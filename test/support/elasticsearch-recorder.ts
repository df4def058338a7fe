/**
 * A local HTTP server that the real @elastic/elasticsearch client talks to in request-level tests: it records
 * every request (method, path, query, headers, JSON or NDJSON body) and answers the minimum the client accepts
 * (product header, acknowledged writes, empty hits). It decides nothing about data: the tests check the recorded
 * requests against Elasticsearch's documented rules (see test/unit/search/elastic-rules.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** Parsed JSON body; NDJSON (bulk) as an array of lines; undefined without a body. */
  body: unknown;
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  if (contentType?.includes('x-ndjson')) {
    return raw
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as unknown);
  }
  return JSON.parse(raw) as unknown;
}

function answer(request: RecordedRequest): { status: number; body?: unknown } {
  const { method, path } = request;
  if (method === 'HEAD') return { status: path === '/' ? 200 : 404 };
  if (path.endsWith('/_bulk')) {
    const lines = request.body as Array<Record<string, { _id?: string }>>;
    const items = lines
      .filter((_, n) => n % 2 === 0)
      .map((action) => {
        const [kind, meta] = Object.entries(action)[0];
        return { [kind]: { _id: meta._id, status: 201, result: 'created' } };
      });
    return { status: 200, body: { took: 1, errors: false, items } };
  }
  if (path.endsWith('/_search')) {
    return { status: 200, body: { took: 1, timed_out: false, hits: { hits: [] } } };
  }
  if (path.endsWith('/_count')) return { status: 200, body: { count: 0 } };
  if (path.endsWith('/_refresh'))
    return { status: 200, body: { _shards: { total: 1, successful: 1, failed: 0 } } };
  if (path === '/')
    return { status: 200, body: { version: { number: '9.4.0' }, tagline: 'You Know, for Search' } };
  return { status: 200, body: { acknowledged: true, shards_acknowledged: true } };
}

export class ElasticsearchRecorder {
  readonly requests: RecordedRequest[] = [];
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Recorded requests whose path ends with `suffix` (and of `method`, when given). */
  find(suffix: string, method?: string): RecordedRequest[] {
    return this.requests.filter(
      (r) => r.path.endsWith(suffix) && (method === undefined || r.method === method),
    );
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: parseBody(Buffer.concat(chunks).toString('utf8'), req.headers['content-type']),
      };
      this.requests.push(request);
      const { status, body } = answer(request);
      res.writeHead(status, {
        'content-type': 'application/json',
        'x-elastic-product': 'Elasticsearch',
      });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }
}
