/**
 * /metrics across CAIRN_HTTP_WORKERS processes: a request reaches one worker, which asks the primary; the primary
 * collects every worker's registry through prom-client's AggregatorRegistry (counters and histograms summed,
 * positions by their gauge's aggregator) and answers. A single process answers with its own registry.
 */
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry } from 'prom-client';
import { processMetrics } from './metrics';

const REQUEST = 'cairn:metrics-request';
const RESPONSE = 'cairn:metrics-response';
const TIMEOUT_MS = 10_000;

/**
 * Constructing it installs prom-client's cluster listeners: in a worker, the answer to the primary's request for
 * its registry; in the primary, the collection of the answers.
 */
const aggregator = new AggregatorRegistry();

interface MetricsMessage {
  type: string;
  id: string;
  text?: string;
  error?: string;
}

function isMetricsMessage(value: unknown): value is MetricsMessage {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

/** In the primary: answers the workers' metrics requests with the aggregate of all workers. */
export function serveClusterMetrics(): void {
  cluster.on('message', (worker, message: unknown) => {
    if (!isMetricsMessage(message) || message.type !== REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: RESPONSE, id: message.id, text }),
      (error: unknown) => worker.send({ type: RESPONSE, id: message.id, error: String(error) }),
    );
  });
}

/** The metrics text: the whole cluster's when this process is a worker, else this process's. */
export function metricsText(): Promise<string> {
  if (!cluster.isWorker || !process.send) return processMetrics();
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      reject(new Error('the primary did not answer the metrics request'));
    }, TIMEOUT_MS);
    const onMessage = (message: unknown): void => {
      if (!isMetricsMessage(message) || message.type !== RESPONSE || message.id !== id) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      if (message.error !== undefined || message.text === undefined) reject(new Error(message.error));
      else resolve(message.text);
    };
    process.on('message', onMessage);
    process.send!({ type: REQUEST, id });
  });
}
