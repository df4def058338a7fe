/**
 * Revisions written in parts (src/commands/memory/content-parts.ts), as a projection sees them: each part is
 * staged in a collection of the projection's own, keyed by item, revision, content hash and part number, and
 * touches nothing readers see; the Created/Revised event naming `parts: N` takes the N staged parts of its
 * revision and content, joins them and clears them. Until then readers see the item as before (or not at all).
 * Each item's staged part ids are also listed in one document of the collection (`<item>:staged`), so an erasure
 * clears parts whose revision never completed (dropStagedParts): they hold the erased text.
 */
import type {
  MemoryContent,
  MemoryContentPart,
  MemoryContentPartRecorded,
} from '../events/memory/memory.events';
import { joinParts } from '../commands/memory/content-parts';
import type { ProjectionContext } from './projection';

interface StagedPart extends MemoryContentPart {
  id: string;
  [key: string]: unknown;
}

function partId(itemId: number, revision: number, contentSha256: string, part: number): string {
  return `${itemId}:${revision}:${contentSha256}:${part}`;
}

/** The document listing an item's staged part ids. */
interface StagedList {
  id: string;
  parts: string[];
  [key: string]: unknown;
}

function listId(itemId: number | string): string {
  return `${itemId}:staged`;
}

async function listOf(context: ProjectionContext, collection: string, itemId: number | string) {
  return (await context.get<StagedList>(collection, listId(itemId)))?.parts ?? [];
}

function putList(context: ProjectionContext, collection: string, itemId: number | string, parts: string[]) {
  if (parts.length === 0) context.delete(collection, listId(itemId));
  else context.put(collection, { id: listId(itemId), parts });
}

/** Deletes every part staged for the item (an erasure: a revision that never completed holds its text). */
export async function dropStagedParts(
  context: ProjectionContext,
  collection: string,
  itemId: number | string,
): Promise<void> {
  for (const id of await listOf(context, collection, itemId)) context.delete(collection, id);
  putList(context, collection, itemId, []);
}

/** Stages one part (`keepContent: false` keeps its chunks only, for projections that never read content). */
export async function stagePart(
  context: ProjectionContext,
  collection: string,
  data: MemoryContentPartRecorded['data'],
  keepContent = true,
): Promise<void> {
  const staged: StagedPart = {
    id: partId(data.memory_item_id, data.revision, data.content_sha256, data.part),
    content: keepContent ? data.content : '',
    chunks: data.chunks,
  };
  context.put(collection, staged);
  const listed = await listOf(context, collection, data.memory_item_id);
  if (!listed.includes(staged.id)) putList(context, collection, data.memory_item_id, [...listed, staged.id]);
}

/**
 * The event's content and chunks: inline, or joined from its staged parts (then cleared). Without `parts` the
 * event is returned as it is; `parts` never reaches a read model.
 */
export async function completeContent<T extends MemoryContent & { memory_item_id: number; revision: number }>(
  context: ProjectionContext,
  collection: string,
  data: T,
): Promise<Omit<T, 'parts'>> {
  const { parts: count, ...rest } = data;
  if (count === undefined) return rest;
  const parts: MemoryContentPart[] = [];
  for (let part = 0; part < count; part += 1) {
    const id = partId(data.memory_item_id, data.revision, data.content_sha256, part);
    const staged = await context.get<StagedPart>(collection, id);
    if (staged === null) {
      throw new Error(
        `memory item ${data.memory_item_id} revision ${data.revision}: part ${part} was never recorded`,
      );
    }
    parts.push({ content: staged.content, chunks: staged.chunks });
    context.delete(collection, id);
  }
  const taken = new Set(
    Array.from({ length: count }, (_, part) =>
      partId(data.memory_item_id, data.revision, data.content_sha256, part),
    ),
  );
  const listed = await listOf(context, collection, data.memory_item_id);
  putList(
    context,
    collection,
    data.memory_item_id,
    listed.filter((id) => !taken.has(id)),
  );
  return { ...rest, ...joinParts(parts) };
}
