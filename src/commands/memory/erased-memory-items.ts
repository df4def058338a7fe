import { Inject, Injectable } from '@nestjs/common';
import { ConflictError } from '../../common/errors';
import { streams } from '../../events/domain-event';
import type { SubjectErased } from '../../events/erasure/erasure.events';
import { subjects } from '../../infrastructure/erasure/data-key-store.port';
import { EVENT_STORE, type EventStore } from '../../infrastructure/event-store/event-store.port';

/**
 * Whether a memory item was erased: its erasure stream (`erasure-memory-item-<id>`), or its organization's
 * (`erasure-organization-<id>`), records SubjectErased, which `memory:erase` and `org:erase` append after they
 * destroyed the keys. An erased item is final: it is never revised, archived or
 * re-ingested again (ingestion claims a new item for its document). Writers check this before they decide; a write
 * that read the item just before its erasure is sealed under a key that is never stored (SqliteDataKeyStore), so
 * what it appends is erased too.
 */
@Injectable()
export class ErasedMemoryItems {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  /**
   * True when the organization's item was erased, by itself or with its whole organization (`org:erase` destroys
   * the keys of every item the organization had then; an item written after it is a new one, with keys of its own).
   * Another organization's erasure reads as not erased.
   */
  async erased(organizationId: number, memoryItemId: number): Promise<boolean> {
    const [item, organization] = await Promise.all([
      this.recorded(subjects.memoryItem(memoryItemId)),
      this.recorded(subjects.organization(organizationId)),
    ]);
    if (item?.data.organization_id === organizationId) return true;
    if (organization?.data.organization_id !== organizationId) return false;
    const [first] = await this.events.readStream(streams.memoryItem(memoryItemId), { max_count: 1 });
    return first !== undefined && first.position < organization.position;
  }

  private async recorded(subject: string): Promise<{ data: SubjectErased['data']; position: number } | null> {
    const [first] = await this.events.readStream(streams.erasure(subject), { max_count: 1 });
    return first?.type === 'SubjectErased'
      ? { data: first.data as SubjectErased['data'], position: first.position }
      : null;
  }

  /** Refuses (409 memory_item_erased) a write to the organization's erased item. */
  async requireNotErased(organizationId: number, memoryItemId: number): Promise<void> {
    if (await this.erased(organizationId, memoryItemId)) {
      throw new ConflictError(
        'memory_item_erased',
        `memory item ${memoryItemId} was erased: it cannot be written again (ingest or save the text as a new item)`,
      );
    }
  }
}
