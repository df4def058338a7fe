import type { FastifyInstance } from 'fastify';
import { log } from './log';
import { httpDuration, httpRequests, METRICS_CONTENT_TYPE } from './metrics';
import { metricsText } from './metrics-cluster';

/**
 * Per request: the `X-Request-Id` header answered (the client's, or a new one, see request-id.ts), one access line when the response is sent (method,
 * route, status, duration, request id; never the body, query or headers) and the HTTP metrics. With
 * `metrics`, `GET /metrics` serves them (Prometheus text); without, it is an unknown route (404).
 */
export function registerHttpObservability(fastify: FastifyInstance, options: { metrics: boolean }): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const seconds = reply.elapsedTime / 1000;
    httpRequests.inc({ method: request.method, route, status: String(status) });
    httpDuration.observe({ method: request.method, route }, seconds);
    log().info(
      {
        request_id: request.id,
        method: request.method,
        route,
        status,
        duration_ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    );
    done();
  });
  if (options.metrics) {
    fastify.get('/metrics', async (_request, reply) => {
      const text = await metricsText();
      return reply.type(METRICS_CONTENT_TYPE).send(text);
    });
  }
}
