/**
 * `cairn export ORG`: an organization's memory items and every revision of each, as JSON Lines
 * (docs/operations.md#export). Items come from the read model (which items the organization has); their revisions
 * come from each item's event stream, so every revision is exported, not only the current one. Every record is
 * built with a fixed key order, one record per line.
 */
import type { EventStore, RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ReadStore } from '../infrastructure/read-store/read-store.port';
import type {
  MemoryChunk,
  MemoryContentPartRecorded,
  MemoryItemCreated,
  MemoryItemRevised,
} from '../events/memory/memory.events';
import { streams } from '../events/domain-event';
import { MEMORY_ITEMS, type MemoryItemDocument } from '../projections/memory.projection';

export const EXPORT_FORMAT = 'cairn-memory-export/1';
const PAGE = 500;

export interface ExportTotals {
  items: number;
  revisions: number;
}

/** Writes one line; resolves when the writer can take more (backpressure). */
export type LineWriter = (line: string) => Promise<void>;

export async function exportMemory(
  organizationId: number,
  stores: { eventStore: EventStore; readStore: ReadStore },
  write: LineWriter,
  now: Date = new Date(),
): Promise<ExportTotals> {
  const totals: ExportTotals = { items: 0, revisions: 0 };
  const emit = (record: object): Promise<void> => write(`${JSON.stringify(record)}\n`);
  await emit({
    record: 'export',
    format: EXPORT_FORMAT,
    organization_id: organizationId,
    exported_at: now.toISOString(),
    head_position: await stores.eventStore.headPosition(),
  });
  for (let offset = 0; ; offset += PAGE) {
    const page = await stores.readStore.find<MemoryItemDocument>(MEMORY_ITEMS, {
      filter: { organization_id: organizationId },
      sort: [{ field: 'memory_item_id', direction: 'asc' }],
      limit: PAGE,
      offset,
    });
    for (const item of page.items) {
      const events = await stores.eventStore.readStream(streams.memoryItem(item.memory_item_id));
      const revisions = revisionsOf(events);
      await emit(itemRecord(item, revisions.length));
      for (const revision of revisions) await emit(revision);
      totals.items += 1;
      totals.revisions += revisions.length;
    }
    if (page.items.length < PAGE) break;
  }
  await emit({ record: 'end', items: totals.items, revisions: totals.revisions });
  return totals;
}

function itemRecord(item: MemoryItemDocument, revisions: number): object {
  return {
    record: 'item',
    memory_item_id: item.memory_item_id,
    memory_source_id: item.memory_source_id,
    organization_id: item.organization_id,
    type: item.type,
    title: item.title,
    source_type: item.source_type,
    source_label: item.source_label,
    source_uri: item.source_uri,
    audience: item.audience,
    authority_level: item.authority_level,
    visibility: item.visibility,
    owner_client_key: item.owner_client_key,
    lifecycle_status: item.lifecycle_status,
    current_revision: item.revision,
    revisions,
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}

type ContentEvent = RecordedEvent<MemoryItemCreated['data']> | RecordedEvent<MemoryItemRevised['data']>;

/** Every revision of one item's stream, its content and chunks joined from their parts when it was recorded so. */
function revisionsOf(events: RecordedEvent[]): object[] {
  const parts = new Map<string, MemoryContentPartRecorded['data'][]>();
  const out: object[] = [];
  for (const event of events) {
    if (event.type === 'MemoryContentPartRecorded') {
      const part = event.data as MemoryContentPartRecorded['data'];
      const key = `${part.revision}:${part.content_sha256}`;
      parts.set(key, [...(parts.get(key) ?? []), part]);
      continue;
    }
    if (event.type !== 'MemoryItemCreated' && event.type !== 'MemoryItemRevised') continue;
    const { data, metadata } = event as ContentEvent;
    let content = data.content;
    let chunks: MemoryChunk[] = data.chunks;
    if (data.parts !== undefined) {
      const recorded = (parts.get(`${data.revision}:${data.content_sha256}`) ?? [])
        .sort((a, b) => a.part - b.part)
        .slice(0, data.parts);
      content = recorded.map((part) => part.content).join('');
      chunks = recorded.flatMap((part) => part.chunks);
    }
    out.push({
      record: 'revision',
      memory_item_id: data.memory_item_id,
      revision: data.revision,
      recorded_at: metadata.occurred_at,
      actor: metadata.actor,
      event_id: event.event_id,
      event_hash: metadata.hash,
      proposal_id: 'proposal_id' in data ? (data.proposal_id ?? null) : null,
      title: data.title,
      summary: data.summary,
      content,
      content_sha256: data.content_sha256,
      source_date: data.source_date,
      effective_at: data.effective_at,
      expires_at: data.expires_at,
      chunks: chunks.map((chunk) => ({
        memory_chunk_id: chunk.memory_chunk_id,
        ordinal: chunk.ordinal,
        heading: chunk.heading,
        text: chunk.text,
      })),
    });
  }
  return out;
}
