import { MAX_GIVEN_SUMMARY_CHARS } from '../../commands/memory/document-content';
import {
  clampTitle,
  documentEntry,
  fileStem,
  lenientDate,
  lenientUrl,
  skip,
  tooLong,
  type ReadEntry,
  type ReadOptions,
  type SourceFile,
} from './reader-types';

/** Fields read from a record, first match wins; anything else in the record is ignored. */
const ID_FIELDS = ['id', '_id', 'key'];
const TITLE_FIELDS = ['title', 'name'];
const TEXT_FIELDS = ['content', 'text', 'body'];
const URL_FIELDS = ['url', 'source_uri', 'source_url'];
const DATE_FIELDS = ['source_date', 'date', 'updated_at'];
const MAX_ID_CHARS = 200;
const TYPE = /^[a-z][a-z0-9_]{0,31}$/;

/** Where a record sits: its file and its 0-based position (array index, or line index in JSONL). */
export interface RecordPosition {
  file: SourceFile;
  index: number;
  /** Human location for messages, e.g. `line 12`. */
  where: string;
  bytes: number;
}

/**
 * One JSON object → one document, read leniently: `id`/`_id`/`key` (string or integer) names it within the file
 * (the document key is `<file key>#<id>`, or `#<index>` without one); `title`/`name`; the text from
 * `content`/`text`/`body` (a non-empty string; records without one are skipped); optional `url`/`source_uri`,
 * `source_date`/`date`/`updated_at`, `summary`, `type` (a-z, 0-9, _), `effective_at`, `expires_at`, and
 * `format: "markdown"` to chunk the text as Markdown (plain text otherwise). Unusable optional values are ignored.
 */
export function recordEntry(record: unknown, at: RecordPosition, options: ReadOptions): ReadEntry {
  const suffix = `#${at.index}`;
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    return skip(`${at.file.path}${suffix}`, 'not_an_object', `${at.where}: not a JSON object`, at.bytes);
  }
  const fields = record as Record<string, unknown>;
  const id = recordId(first(fields, ID_FIELDS));
  const path = `${at.file.path}#${id ?? at.index}`;
  const text = TEXT_FIELDS.map((name) => own(fields, name)).find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  if (text === undefined) {
    return skip(path, 'no_text', `${at.where}: no content, text or body string`, at.bytes);
  }
  const long = tooLong(path, text, at.bytes);
  if (long) return long;
  const titleField = first(fields, TITLE_FIELDS);
  const title = typeof titleField === 'string' && titleField.trim() !== '' ? titleField : null;
  const type = own(fields, 'type');
  const format = own(fields, 'format');
  const summary = own(fields, 'summary');
  return documentEntry(
    path,
    {
      key: `${at.file.key}#${id ?? at.index}`,
      // The records of one file share its source (one registration, not one per record).
      source_key: at.file.key,
      label: at.file.label,
      title: title ?? firstLine(text) ?? `${fileStem(at.file.path)} #${id ?? at.index}`,
      content: text,
      format: format === 'markdown' || format === 'md' ? 'markdown' : 'text',
      type: typeof type === 'string' && TYPE.test(type) ? type : 'document',
      source_uri: lenientUrl(first(fields, URL_FIELDS)),
      source_date: lenientDate(first(fields, DATE_FIELDS)),
      effective_at: lenientDate(own(fields, 'effective_at')),
      expires_at: lenientDate(own(fields, 'expires_at')),
      summary: usableSummary(summary),
    },
    options,
    title !== null,
    at.bytes,
  );
}

/** A record's summary, trimmed, if it is one an item can keep as given (else null: derived from the text). */
function usableSummary(value: unknown): string | null {
  const summary = typeof value === 'string' ? value.trim() : '';
  return summary !== '' && summary.length <= MAX_GIVEN_SUMMARY_CHARS ? summary : null;
}

/** An own property (never one inherited from Object.prototype). */
function own(record: Record<string, unknown>, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, name) ? record[name] : undefined;
}

function first(record: Record<string, unknown>, names: string[]): unknown {
  for (const name of names) {
    const value = own(record, name);
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

/** A usable record id: a trimmed string of 1–200 characters without control characters, or an integer. */
function recordId(value: unknown): string | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : null;
  if (typeof value !== 'string') return null;
  const id = value.trim();
  return id !== '' && id.length <= MAX_ID_CHARS && !/\p{Cc}/u.test(id) ? id : null;
}

/** The first non-blank line of a text, as a stand-in title. */
function firstLine(text: string): string | null {
  const line = /\S[^\n]*/.exec(text)?.[0].trim();
  if (line === undefined) return null;
  const title = line.length > 120 ? `${line.slice(0, 119).replace(/\s+\S*$/, '')}…` : line;
  return clampTitle(title.replace(/^#+\s*/, '')) || null;
}
