/**
 * Prometheus metrics (prom-client, the process's default registry), served at /metrics when CAIRN_METRICS=on
 * (docs/operations.md#metrics). They are always counted (a counter increment is cheap); serving is what the
 * setting turns on. With CAIRN_HTTP_WORKERS > 1 the primary aggregates every worker's (metrics-cluster.ts).
 */
import { Counter, Gauge, Histogram, register } from 'prom-client';

const SECONDS_FAST = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SECONDS_SLOW = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120];

export const httpRequests = new Counter({
  name: 'cairn_http_requests_total',
  help: 'HTTP requests answered, by method, route (the route pattern; "unmatched" for unknown paths) and status',
  labelNames: ['method', 'route', 'status'] as const,
});

export const httpDuration = new Histogram({
  name: 'cairn_http_request_duration_seconds',
  help: 'HTTP request latency (first byte in to response sent), by method and route',
  labelNames: ['method', 'route'] as const,
  buckets: SECONDS_FAST,
});

export const replyOutcomes = new Counter({
  name: 'cairn_reply_outcomes_total',
  help: 'Reply attempts by outcome code ("completed", or the system_status code)',
  labelNames: ['code'] as const,
});

export const modelCallDuration = new Histogram({
  name: 'cairn_model_call_duration_seconds',
  help: 'Model calls by role (composer, reviewer, embeddings) and outcome ("ok" or the failure kind)',
  labelNames: ['role', 'outcome'] as const,
  buckets: SECONDS_SLOW,
});

export const eventAppends = new Counter({
  name: 'cairn_event_appends_total',
  help: 'Event store appends by commands, by outcome (ok, conflict, error)',
  labelNames: ['outcome'] as const,
});

export const eventAppendDuration = new Histogram({
  name: 'cairn_event_append_duration_seconds',
  help: 'Event store append latency',
  buckets: SECONDS_FAST,
});

export const rateLimitRefusals = new Counter({
  name: 'cairn_rate_limit_refusals_total',
  help: 'Requests refused with 429, by limit (connector classes search, writes, replies; public)',
  labelNames: ['limit'] as const,
});

/** Reads the store positions at scrape time (set by the server once its stores are open). */
export interface PositionSource {
  head(): Promise<number>;
  checkpoints(): Promise<Array<{ projection: string; position: number }>>;
}

let positions: PositionSource | null = null;

export function observePositions(source: PositionSource | null): void {
  positions = source;
}

/** Every worker reads the same store: aggregated across workers, the maximum is the value. */
export const eventStoreHead = new Gauge({
  name: 'cairn_event_store_head_position',
  help: 'Global position of the last event in the event store',
  aggregator: 'max',
  async collect() {
    if (positions) this.set(await positions.head());
  },
});

export const projectionPosition = new Gauge({
  name: 'cairn_projection_position',
  help: 'Global position each projection has applied (its checkpoint)',
  labelNames: ['projection'] as const,
  aggregator: 'max',
  async collect() {
    if (!positions) return;
    for (const checkpoint of await positions.checkpoints()) {
      this.set({ projection: checkpoint.projection }, checkpoint.position);
    }
  },
});

export const projectionLag = new Gauge({
  name: 'cairn_projection_lag_events',
  help: 'Events a projection has still to apply (head position minus its checkpoint)',
  labelNames: ['projection'] as const,
  aggregator: 'min',
  async collect() {
    if (!positions) return;
    const [head, checkpoints] = await Promise.all([positions.head(), positions.checkpoints()]);
    for (const checkpoint of checkpoints) {
      this.set({ projection: checkpoint.projection }, Math.max(0, head - checkpoint.position));
    }
  },
});

/** This process's metrics in the Prometheus text format. */
export function processMetrics(): Promise<string> {
  return register.metrics();
}

export const METRICS_CONTENT_TYPE = register.contentType;
