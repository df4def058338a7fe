import { createHash } from 'node:crypto';
import { ValidationFailedError } from '../../common/errors';
import type { MemoryContent } from '../../events/memory/memory.events';
import { chunkDocument } from '../../ingestion/chunking';
import type { DocumentInput } from './ingest-document.command';

export const MAX_DOCUMENT_CHARS = 2_000_000;
/** A summary given with the content (a save's `summary`, an ingested record's) is stored as given, trimmed. */
export const MAX_GIVEN_SUMMARY_CHARS = 1000;
/** Without one, the summary is the start of the first chunk, whitespace collapsed, cut to this length. */
export const DERIVED_SUMMARY_CHARS = 280;

/** Validated content fields and its chunks, before chunk ids are assigned. */
export type PreparedContent = Omit<MemoryContent, 'chunks'> & { pieces: ReturnType<typeof chunkDocument> };

export function prepareContent(input: DocumentInput): PreparedContent {
  const title = input.title.trim();
  const problems: Array<{ field: string; message: string }> = [];
  if (title.length === 0 || title.length > 300)
    problems.push({ field: 'title', message: '1 to 300 characters' });
  if (input.content.trim().length === 0) problems.push({ field: 'content', message: 'must not be empty' });
  const summary = input.summary?.trim() ?? null;
  if (summary !== null && (summary.length === 0 || summary.length > MAX_GIVEN_SUMMARY_CHARS))
    problems.push({ field: 'summary', message: `1 to ${MAX_GIVEN_SUMMARY_CHARS} characters, not blank` });
  if (input.content.length > MAX_DOCUMENT_CHARS)
    problems.push({ field: 'content', message: `at most ${MAX_DOCUMENT_CHARS} characters` });
  for (const field of ['source_date', 'effective_at', 'expires_at'] as const) {
    const value = input[field];
    if (value !== null && Number.isNaN(Date.parse(value)))
      problems.push({ field, message: 'must be an ISO 8601 timestamp' });
  }
  if (problems.length > 0)
    throw new ValidationFailedError(`invalid document: ${problems.map((p) => p.field).join(', ')}`, problems);
  const pieces = chunkDocument(input.content, input.format);
  return {
    title,
    summary: summary ?? (pieces[0]?.text ?? title).replace(/\s+/g, ' ').slice(0, DERIVED_SUMMARY_CHARS),
    content: input.content,
    content_sha256: createHash('sha256').update(`${title}\u0000${input.content}`, 'utf8').digest('hex'),
    source_date: isoOrNull(input.source_date),
    effective_at: isoOrNull(input.effective_at),
    expires_at: isoOrNull(input.expires_at),
    pieces,
  };
}

function isoOrNull(value: string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}
