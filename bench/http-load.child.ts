/**
 * Runs autocannon in a child process, so the load generator never shares the server's event loop (it still
 * shares the machine's cores, as a client on the same host does). Receives an HttpLoadRequest over IPC and answers
 * once (child-request.ts). (Not a worker thread: autocannon treats a worker thread as one of
 * its own workers and reports raw histograms.)
 */
import autocannon from 'autocannon';
import { answerOnce } from './child-request';

export interface HttpLoadRequest {
  url: string;
  connections: number;
  durationS: number;
  /** When set, the load ends after this many requests in all (each connection cycles the list on its own). */
  amount?: number;
  /** Cycled through in order; `body` only for POST. */
  requests: Array<{ method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string }>;
}

export interface HttpLoadResult {
  latencies: number[];
  requestsPerSecond: number;
  failures: number;
}

function run(request: HttpLoadRequest): Promise<HttpLoadResult> {
  const latencies: number[] = [];
  return new Promise<HttpLoadResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url: request.url,
        connections: request.connections,
        duration: request.durationS,
        ...(request.amount !== undefined ? { amount: request.amount } : {}),
        requests: request.requests,
      },
      (error: unknown, done: autocannon.Result) => {
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else
          resolve({
            latencies,
            requestsPerSecond: done.requests.average,
            failures: done.non2xx + done.errors + done.timeouts,
          });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

answerOnce(run);
