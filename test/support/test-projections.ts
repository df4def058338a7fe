/** Small projections for the projection runner's tests (test/integration/projection-runner.spec.ts). */
import type { RecordedEvent } from '../../src/infrastructure/event-store/event-store.port';
import type { Projection, ProjectionContext } from '../../src/projections/projection';

/** Deliberately NOT idempotent: it counts applications, so any double apply shows up. */
export function countingProjection(version = 1): Projection {
  return {
    name: 'counter',
    version,
    collections: [{ name: 'counts', indexes: [] }],
    eventTypes: new Set(['Tick']),
    async apply(_event: RecordedEvent, context: ProjectionContext) {
      const current = await context.get<{ id: string; n: number }>('counts', 'ticks');
      context.put('counts', { id: 'ticks', n: (current?.n ?? 0) + 1 });
    },
  };
}

/**
 * Indexes one search document `doc-<position>` per `Indexed` event, with the body `body(id)`; `grows`: its batches
 * grow while it lags, as the memory projection's do.
 */
export function indexingProjection(body: (id: string) => string, grows = false): Projection {
  return {
    name: 'indexing',
    version: 1,
    collections: [],
    usesSearchIndex: true,
    batchesGrowWhileLagging: grows,
    eventTypes: new Set(['Indexed']),
    async apply(event: RecordedEvent, context: ProjectionContext) {
      const id = `doc-${event.position}`;
      context.indexDocument({ id, organization_id: 'o', title: 't', body: body(id), fields: {} });
    },
  };
}

export function meta() {
  return {
    organization_id: null,
    correlation_id: 'c',
    causation_id: null,
    actor: 'system:test',
    occurred_at: new Date(0).toISOString(),
    schema_version: 1,
  };
}
