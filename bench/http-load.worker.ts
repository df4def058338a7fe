/**
 * Runs autocannon in a worker thread, so the load generator never shares the server's event loop (it still
 * shares the machine's cores, as a client on the same host does). Receives an HttpLoadRequest as workerData,
 * posts back an HttpLoadResult.
 */
import autocannon from 'autocannon';
import { parentPort, workerData } from 'node:worker_threads';

export interface HttpLoadRequest {
  url: string;
  connections: number;
  durationS: number;
  requests: Array<{ method: 'POST'; path: string; headers: Record<string, string>; body: string }>;
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

if (parentPort !== null) {
  const port = parentPort;
  run(workerData as HttpLoadRequest).then(
    (result) => port.postMessage({ ok: true, result }),
    (error: unknown) => port.postMessage({ ok: false, error: String(error) }),
  );
}
