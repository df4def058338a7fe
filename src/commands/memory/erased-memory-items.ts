import { Inject, Injectable } from '@nestjs/common';
import { ConflictError } from '../../common/errors';
import { streams } from '../../events/domain-event';
import type { SubjectErased } from '../../events/erasure/erasure.events';
import { subjects } from '../../infrastructure/erasure/data-key-store.port';
import { EVENT_STORE, type EventStore } from '../../infrastructure/event-store/event-store.port';

/**
 * Whether a memory item was erased: its erasure stream (`erasure-memory-item-<id>`) records SubjectErased, which
 * `memory:erase` appends after it destroyed the item's keys (and an organization's erasure does not: a whole
 * organization erased has no items to write to). An erased item is final: it is never revised, archived or
 * re-ingested again (ingestion claims a new item for its document). Writers check this before they decide; a write
 * that read the item just before its erasure is sealed under a key that is never stored (SqliteDataKeyStore), so
 * what it appends is erased too.
 */
@Injectable()
export class ErasedMemoryItems {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  /** True when the organization's item was erased (another organization's erasure reads as not erased). */
  async erased(organizationId: number, memoryItemId: number): Promise<boolean> {
    const [first] = await this.events.readStream(streams.erasure(subjects.memoryItem(memoryItemId)), {
      max_count: 1,
    });
    if (first?.type !== 'SubjectErased') return false;
    return (first.data as SubjectErased['data']).organization_id === organizationId;
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
