/**
 * Revisions larger than one append. An event store refuses appends over its limit (KurrentDB: MaxAppendSize,
 * 1 MiB by default; the embedded store enforces the same), while a memory revision carries its content (up to
 * 2,000,000 characters) and chunks repeating that text: several MB. Such a revision is written as parts:
 *
 *   MemoryContentPartRecorded × N   (each one append, each under PART_BUDGET_BYTES of content and chunks)
 *   MemoryItemCreated / MemoryItemRevised with `parts: N`, content '' and chunks []
 *
 * all in the item's stream, so the hash chain covers every part and the revision's event. The split is a pure
 * function of the content: an ingestion interrupted after some parts resumes after the last part recorded.
 */
import type { MemoryChunk, MemoryContent, MemoryContentPart } from '../../events/memory/memory.events';

/**
 * Most bytes of content and chunks (as JSON) one event carries; the rest of an event (ids, title, summary,
 * metadata, hash chain) stays far below the remaining half of a 1 MiB append.
 */
export const PART_BUDGET_BYTES = 512 * 1024;
/** The longest content slice (UTF-16 units): at most 6 JSON bytes each (\\u escapes), well under the budget. */
const SLICE_UNITS = 32 * 1024;

type Unit = { content: string } | { chunk: MemoryChunk };

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** The content in slices of at most SLICE_UNITS, never between the two halves of a surrogate pair. */
function slices(content: string): string[] {
  const out: string[] = [];
  for (let start = 0; start < content.length;) {
    let end = Math.min(start + SLICE_UNITS, content.length);
    const last = content.charCodeAt(end - 1);
    if (end < content.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    out.push(content.slice(start, end));
    start = end;
  }
  return out;
}

/** The content's parts, or null when content and chunks fit one event. */
export function splitContent(content: Pick<MemoryContent, 'content' | 'chunks'>): MemoryContentPart[] | null {
  if (jsonBytes(content.content) + jsonBytes(content.chunks) <= PART_BUDGET_BYTES) return null;
  const units: Unit[] = [
    ...slices(content.content).map((text) => ({ content: text })),
    ...content.chunks.map((chunk) => ({ chunk })),
  ];
  const parts: MemoryContentPart[] = [];
  let current: MemoryContentPart = { content: '', chunks: [] };
  let size = 0;
  for (const unit of units) {
    const bytes = jsonBytes(unit);
    if (size + bytes > PART_BUDGET_BYTES && size > 0) {
      parts.push(current);
      current = { content: '', chunks: [] };
      size = 0;
    }
    if ('content' in unit) current.content += unit.content;
    else current.chunks.push(unit.chunk);
    size += bytes;
  }
  parts.push(current);
  return parts;
}

/** The content and chunks of a revision's parts, in order. */
export function joinParts(parts: readonly MemoryContentPart[]): MemoryContentPart {
  return {
    content: parts.map((part) => part.content).join(''),
    chunks: parts.flatMap((part) => part.chunks),
  };
}
