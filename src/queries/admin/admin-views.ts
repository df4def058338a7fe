import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors';
import { streams } from '../../events/domain-event';
import type { MemoryContentPartRecorded, MemoryItemEvent } from '../../events/memory/memory.events';
import { EVENT_STORE, type EventStore } from '../../infrastructure/event-store/event-store.port';
import {
  READ_STORE,
  type FindFilter,
  type ReadDocument,
  type ReadStore,
} from '../../infrastructure/read-store/read-store.port';
import { CHATBOTS, type ChatbotDocument } from '../../projections/chatbots.projection';
import { CONNECTORS, type ConnectorDocument } from '../../projections/connectors.projection';
import { itemContent, MEMORY_ITEMS, type MemoryItemDocument } from '../../projections/memory.projection';
import { ORGANIZATIONS, type OrganizationDocument } from '../../projections/organizations.projection';

/** `Omit` for read-model documents: drops the index signature too, so the named fields keep their types. */
export type Without<T, K extends PropertyKey> = {
  [P in keyof T as string extends P ? never : P extends K ? never : P]: T[P];
};

/** At most this many organizations, chatbots or connectors in one list. */
const MAX_LIST = 1000;

export interface MemoryItemFilters {
  lifecycle_status: 'active' | 'archived' | null;
  audience: 'customer_safe' | 'internal' | null;
  source_type: 'document' | 'tool_work_log' | 'memory_proposal' | null;
  /** Case-insensitive substring of the title. */
  q: string | null;
  /** Items with a smaller id than this (the previous page's next_cursor). */
  cursor: number | null;
  limit: number;
}

export type MemoryItemRow = Without<MemoryItemDocument, 'id' | 'content' | 'chunks' | 'content_layout'>;

export interface MemoryRevision {
  revision: number;
  title: string;
  content: string;
  content_sha256: string;
  recorded_at: string;
  actor: string;
  /** The approved correction proposal this revision applies, or null. */
  proposal_id: number | null;
}

const strip = <T extends ReadDocument>({ id: _id, ...rest }: T): Without<T, 'id'> =>
  rest as unknown as Without<T, 'id'>;

/** What the admin API lists and shows that no connector query does: every organization's records, as stored. */
@Injectable()
export class AdminViews {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async organizations(): Promise<Array<Without<OrganizationDocument, 'id'>>> {
    const found = await this.readStore.find<OrganizationDocument>(ORGANIZATIONS, {
      sort: [{ field: 'organization_id', direction: 'asc' }],
      limit: MAX_LIST,
    });
    return found.items.map(strip);
  }

  async organization(organizationId: number): Promise<Without<OrganizationDocument, 'id'>> {
    const found = await this.readStore.get<OrganizationDocument>(ORGANIZATIONS, String(organizationId));
    if (!found) throw new NotFoundError('organization not found', 'organization_not_found');
    return strip(found);
  }

  async chatbots(organizationId: number): Promise<Array<Without<ChatbotDocument, 'id'>>> {
    await this.organization(organizationId);
    const found = await this.readStore.find<ChatbotDocument>(CHATBOTS, {
      filter: { organization_id: organizationId },
      sort: [{ field: 'chatbot_id', direction: 'asc' }],
      limit: MAX_LIST,
    });
    return found.items.map(strip);
  }

  /** Connectors without their token digests. */
  async connectors(organizationId: number): Promise<ConnectorRow[]> {
    await this.organization(organizationId);
    const found = await this.readStore.find<ConnectorDocument>(CONNECTORS, {
      filter: { organization_id: organizationId },
      sort: [{ field: 'connector_id', direction: 'asc' }],
      limit: MAX_LIST,
    });
    return found.items.map(connectorRow);
  }

  async connector(organizationId: number, connectorId: number): Promise<ConnectorRow> {
    const found = await this.readStore.get<ConnectorDocument>(CONNECTORS, String(connectorId));
    if (!found || found.organization_id !== organizationId) {
      throw new NotFoundError('connector not found', 'connector_not_found');
    }
    return connectorRow(found);
  }

  /** Items newest first, filtered; `next_cursor` continues after the last one (null: no more). */
  async memoryItems(
    organizationId: number,
    filters: MemoryItemFilters,
  ): Promise<{ items: MemoryItemRow[]; next_cursor: number | null; total: number }> {
    await this.organization(organizationId);
    const filter: FindFilter = { organization_id: organizationId };
    if (filters.lifecycle_status) filter.lifecycle_status = filters.lifecycle_status;
    if (filters.audience) filter.audience = filters.audience;
    if (filters.source_type) filter.source_type = filters.source_type;
    if (filters.q) filter.title = { $contains: filters.q };
    const base = { ...filter };
    if (filters.cursor !== null) filter.memory_item_id = { $lt: filters.cursor };
    const found = await this.readStore.find<MemoryItemDocument>(MEMORY_ITEMS, {
      filter,
      sort: [{ field: 'memory_item_id', direction: 'desc' }],
      limit: filters.limit,
    });
    const total = (await this.readStore.find(MEMORY_ITEMS, { filter: base, limit: 1 })).total;
    const items = found.items.map(
      ({ id: _id, content: _content, chunks: _chunks, content_layout: _layout, ...row }) => row,
    );
    const more = found.total > found.items.length;
    return { items, next_cursor: more ? items[items.length - 1].memory_item_id : null, total };
  }

  /** One item as stored now (archived and tool-private ones too), with every revision from its stream. */
  async memoryItem(
    organizationId: number,
    memoryItemId: number,
  ): Promise<{ item: MemoryItemRow & { content: string }; revisions: MemoryRevision[] }> {
    const found = await this.readStore.get<MemoryItemDocument>(MEMORY_ITEMS, String(memoryItemId));
    if (!found || found.organization_id !== organizationId) {
      throw new NotFoundError('memory item not found', 'memory_item_not_found');
    }
    const { id: _id, chunks: _chunks, content_layout: _layout, ...item } = found;
    return { item: { ...item, content: itemContent(found) }, revisions: await this.revisions(memoryItemId) };
  }

  private async revisions(memoryItemId: number): Promise<MemoryRevision[]> {
    const recorded = await this.events.readStream(streams.memoryItem(memoryItemId));
    const parts = new Map<number, string[]>();
    const revisions: MemoryRevision[] = [];
    for (const event of recorded) {
      const typed = event as unknown as MemoryItemEvent;
      if (typed.type === 'MemoryContentPartRecorded') {
        const data = typed.data as MemoryContentPartRecorded['data'];
        const list = parts.get(data.revision) ?? [];
        list[data.part] = data.content;
        parts.set(data.revision, list);
      } else if (typed.type === 'MemoryItemCreated' || typed.type === 'MemoryItemRevised') {
        const data = typed.data;
        revisions.push({
          revision: data.revision,
          title: data.title,
          content: data.parts ? (parts.get(data.revision) ?? []).join('') : data.content,
          content_sha256: data.content_sha256,
          recorded_at: event.metadata.occurred_at,
          actor: event.metadata.actor,
          proposal_id: typed.type === 'MemoryItemRevised' ? (typed.data.proposal_id ?? null) : null,
        });
      }
    }
    return revisions.reverse();
  }
}

export type ConnectorRow = Without<ConnectorDocument, 'id' | 'active_token_sha256'>;

function connectorRow(doc: ConnectorDocument): ConnectorRow {
  const { id: _id, active_token_sha256: _digest, ...row } = doc;
  return row;
}
