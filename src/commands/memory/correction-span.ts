/**
 * The text a correction replaces: the cited chunk as it stands in the item's content, and its replacement.
 * Pure string work, shared by the proposal (locating the span) and the approval (replacing it).
 */
import type { MemoryChunk } from '../../events/memory/memory.events';
import { chunkDocument } from '../../ingestion/chunking';
import { DERIVED_SUMMARY_CHARS } from './document-content';

/** Where `part` occurs in `text` (every start offset, overlapping ones included). */
function occurrences(text: string, part: string): number[] {
  const found: number[] = [];
  if (part === '') return found;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + 1)) found.push(at);
  return found;
}

/** A highlight as shown (« » marks, … where the text goes on, spaces collapsed) reduced to comparable words. */
function plainExcerpt(excerpt: string): string {
  return excerpt.replace(/[«»]/g, '').replace(/^…|…$/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * The span a correction of this reference replaces: of the cited chunks, the one the reference's excerpt was cut
 * from (else the first cited), when its text occurs exactly once in `content`. Null otherwise (a chunk whose
 * Markdown marks were reduced, or text that repeats): nothing can be replaced without guessing.
 */
export function locateCitedSpan(
  content: string,
  chunks: readonly MemoryChunk[],
  citedChunkIds: readonly number[],
  excerpt: string,
): { memory_chunk_id: number; span: string | null } | null {
  const cited = citedChunkIds
    .map((id) => chunks.find((chunk) => chunk.memory_chunk_id === id))
    .filter((chunk): chunk is MemoryChunk => chunk !== undefined);
  if (cited.length === 0) return null;
  const words = plainExcerpt(excerpt);
  const chosen =
    (words === '' ? undefined : cited.find((c) => c.text.replace(/\s+/g, ' ').includes(words))) ?? cited[0];
  return {
    memory_chunk_id: chosen.memory_chunk_id,
    span: occurrences(content, chosen.text).length === 1 ? chosen.text : null,
  };
}

/** `content` with its only occurrence of `span` replaced; null when `span` is absent or occurs more than once. */
export function replaceSpanOnce(content: string, span: string, replacement: string): string | null {
  const at = occurrences(content, span);
  if (at.length !== 1) return null;
  return content.slice(0, at[0]) + replacement + content.slice(at[0] + span.length);
}

/**
 * The format the item's content was chunked with (events do not record it): the one that gives back its stored
 * chunks; Markdown when neither does.
 */
export function inferFormat(content: string, chunks: readonly MemoryChunk[]): 'markdown' | 'text' {
  const same = (format: 'markdown' | 'text'): boolean => {
    const pieces = chunkDocument(content, format);
    return (
      pieces.length === chunks.length &&
      pieces.every((piece, i) => piece.text === chunks[i].text && piece.heading === chunks[i].heading)
    );
  };
  if (same('markdown')) return 'markdown';
  return same('text') ? 'text' : 'markdown';
}

/** True when `summary` is the one derived from the content (not given): a revision derives it again. */
export function isDerivedSummary(summary: string, title: string, chunks: readonly MemoryChunk[]): boolean {
  const first = [...chunks].sort((a, b) => a.ordinal - b.ordinal)[0];
  return summary === (first?.text ?? title).replace(/\s+/g, ' ').slice(0, DERIVED_SUMMARY_CHARS);
}
