import { Inject, Injectable } from '@nestjs/common';
import { SEALED_EVENT_STORE, type EventStore } from '../infrastructure/event-store/event-store.port';

/** Events read per page while scanning. */
const PAGE = 5_000;

export interface ConnectorTraceVolume {
  connector_id: number;
  /** Searches recorded (one RecallTraceRecorded each). */
  searches: number;
  /** Their events' size: data and metadata as JSON, UTF-8 bytes. */
  bytes: number;
  first_at: string;
  last_at: string;
}

export interface TraceVolumeReport {
  organization_id: number;
  since: string | null;
  connectors: ConnectorTraceVolume[];
  total: { searches: number; bytes: number };
}

/**
 * How much recall-trace history each connector of an organization has written (docs/operations.md#recall-traces):
 * every search appends one trace, so a connector searching in a loop shows here. It reads the whole event log
 * (an operator command; the search path keeps no extra read model for it), in pages.
 */
@Injectable()
export class TraceVolume {
  constructor(@Inject(SEALED_EVENT_STORE) private readonly store: EventStore) {}

  async report(organizationId: number, since: Date | null): Promise<TraceVolumeReport> {
    const byConnector = new Map<number, ConnectorTraceVolume>();
    const sinceIso = since?.toISOString() ?? null;
    for (let after = 0; ;) {
      const page = await this.store.readAll({ after_position: after, max_count: PAGE });
      if (page.length === 0) break;
      after = page[page.length - 1]!.position;
      for (const event of page) {
        if (event.type !== 'RecallTraceRecorded') continue;
        const data = event.data as { organization_id?: unknown; connector_id?: unknown };
        if (data.organization_id !== organizationId || typeof data.connector_id !== 'number') continue;
        const at = event.metadata.occurred_at;
        if (sinceIso !== null && at < sinceIso) continue;
        const bytes =
          Buffer.byteLength(JSON.stringify(event.data), 'utf8') +
          Buffer.byteLength(JSON.stringify(event.metadata), 'utf8');
        const entry = byConnector.get(data.connector_id);
        if (entry) {
          entry.searches += 1;
          entry.bytes += bytes;
          if (at > entry.last_at) entry.last_at = at;
          if (at < entry.first_at) entry.first_at = at;
        } else {
          byConnector.set(data.connector_id, {
            connector_id: data.connector_id,
            searches: 1,
            bytes,
            first_at: at,
            last_at: at,
          });
        }
      }
    }
    const connectors = [...byConnector.values()].sort(
      (a, b) => b.bytes - a.bytes || a.connector_id - b.connector_id,
    );
    return {
      organization_id: organizationId,
      since: sinceIso,
      connectors,
      total: {
        searches: connectors.reduce((n, c) => n + c.searches, 0),
        bytes: connectors.reduce((n, c) => n + c.bytes, 0),
      },
    };
  }
}
