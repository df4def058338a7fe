import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { Audience, AuthorityLevel } from '../../events/memory/memory.events';
import { MAX_DOCUMENT_CHARS } from '../../commands/memory/document-content';
import type { DocumentInput } from '../../commands/memory/ingest-document.command';

/** The formats `memory:ingest` reads; anything else is skipped and counted. */
export type FileFormat = 'markdown' | 'text' | 'html' | 'json' | 'jsonl';

/** One file found under a PATH argument. */
export interface SourceFile {
  /** The path to open: the PATH argument joined with the file's path below it. */
  path: string;
  /** The document key: `file:` + `label` (JSON records append `#<id or index>`). */
  key: string;
  /** `<root basename>/<path below the root>` with `/` separators; also the source label. */
  label: string;
  size: number;
  format: FileFormat | null;
}

/** What the operator chose for the whole run. */
export interface ReadOptions {
  audience: Audience;
  authority_level: AuthorityLevel;
  /** Overrides the documents' own expiry (ISO 8601) when set. */
  expires_at: string | null;
  /** Only for a run of one document: replaces the title the file would give. */
  title?: string | null;
  /** Only for a run of one document: replaces the URL the file would give (already validated). */
  source_uri?: string | null;
  /**
   * For folders (already validated, ends with `/`): a document that gives no URL of its own gets this base plus its
   * path below the folder given on the command line (`docs/help/a b.md` → `<base>help/a%20b.md`).
   */
  source_base?: string | null;
}

/** `<base>` + the label's path below its first segment (the folder or parent the label starts with). */
export function sourceUnderBase(base: string, label: string): string {
  const below = label.split('/').slice(1).map(encodeURIComponent).join('/');
  return new URL(below, base).href;
}

export type SkipReason =
  | 'unsupported_type'
  | 'empty'
  | 'too_large'
  | 'invalid_utf8'
  | 'invalid_json'
  | 'not_an_object'
  | 'no_text'
  | 'unreadable'
  | 'duplicate_key'
  | 'invalid_document'
  | 'memory_item_archived';

export interface ReadDocument {
  kind: 'document';
  /** The file path, with `#<id or index>` for a JSON record. */
  path: string;
  document: DocumentInput;
  /** False when the title was made up (file name, first line): `memory:revise` then keeps the item's title. */
  explicit_title: boolean;
  /** Bytes of the file this entry accounts for (progress). */
  bytes: number;
}

export interface ReadSkip {
  kind: 'skipped';
  path: string;
  reason: SkipReason;
  message: string;
  bytes: number;
}

export type ReadEntry = ReadDocument | ReadSkip;

/** Files larger than this many bytes are certainly over the character limit (UTF-8: at most 3 bytes/unit). */
export const MAX_TEXT_FILE_BYTES = 3 * MAX_DOCUMENT_CHARS;
/** HTML carries markup around its text; larger pages are skipped before parsing. */
export const MAX_HTML_FILE_BYTES = 16 * 1024 * 1024;
/** A JSON file (an array of documents) is parsed whole; JSONL streams and has no file bound. */
export const MAX_JSON_FILE_BYTES = 64 * 1024 * 1024;
/** One JSONL line: a document at the character limit plus its fields. */
export const MAX_JSONL_LINE_BYTES = 3 * MAX_DOCUMENT_CHARS + 64 * 1024;
export const MAX_TITLE_CHARS = 300;

export function skip(path: string, reason: SkipReason, message: string, bytes = 0): ReadSkip {
  return { kind: 'skipped', path, reason, message, bytes };
}

/** Strict UTF-8 (a leading BOM is dropped); null when the bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The file name without its extension, as a fallback title. */
export function fileStem(path: string): string {
  const name = basename(path);
  return name.slice(0, name.length - extname(name).length) || name;
}

/** A title cut to the limit on a word boundary; whitespace collapsed. */
export function clampTitle(title: string): string {
  const flat = title.replace(/\s+/g, ' ').trim();
  if (flat.length <= MAX_TITLE_CHARS) return flat;
  const cut = flat.lastIndexOf(' ', MAX_TITLE_CHARS - 1);
  return `${flat.slice(0, cut > MAX_TITLE_CHARS / 2 ? cut : MAX_TITLE_CHARS - 1)}…`;
}

/** An ISO timestamp from a lenient date value (string or epoch milliseconds); null when unusable. */
export function lenientDate(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  const ms = typeof value === 'number' ? value : Date.parse(value.trim());
  if (!Number.isFinite(ms)) return null;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** An http(s) URL without credentials (normalized), or null. */
export function lenientUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2048) return null;
  try {
    const url = new URL(value.trim());
    if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password) return null;
    return url.toString();
  } catch {
    return null;
  }
}

/** The fields every reader fills; the rest comes from the run's options. */
export interface DocumentFields {
  key: string;
  /** The key of the source the document shares with others (a JSON record's file); absent: its own. */
  source_key?: string;
  label: string;
  title: string;
  content: string;
  format: DocumentInput['format'];
  type?: string;
  source_uri?: string | null;
  source_date?: string | null;
  effective_at?: string | null;
  expires_at?: string | null;
  summary?: string | null;
}

export function toDocument(fields: DocumentFields, options: ReadOptions): DocumentInput {
  return {
    document_key: fields.key,
    title: clampTitle(options.title ?? fields.title),
    content: fields.content,
    format: fields.format,
    type: fields.type ?? 'document',
    audience: options.audience,
    authority_level: options.authority_level,
    source_label: fields.label,
    source_key: fields.source_key ?? null,
    source_uri:
      options.source_uri ??
      fields.source_uri ??
      (options.source_base ? sourceUnderBase(options.source_base, fields.label) : null),
    source_date: fields.source_date ?? null,
    effective_at: fields.effective_at ?? null,
    expires_at: options.expires_at ?? fields.expires_at ?? null,
    summary: fields.summary ?? null,
  };
}

export function documentEntry(
  path: string,
  fields: DocumentFields,
  options: ReadOptions,
  explicitTitle: boolean,
  bytes: number,
): ReadDocument {
  const document = toDocument(fields, options);
  return { kind: 'document', path, document, explicit_title: explicitTitle || !!options.title, bytes };
}

/**
 * Reads a whole file as strict UTF-8 within a byte bound: the text, or the reason it is skipped (too large,
 * invalid UTF-8, empty, unreadable). Never reads a file over the bound.
 */
export async function readWholeFile(file: SourceFile, maxBytes: number): Promise<string | ReadSkip> {
  if (file.size > maxBytes)
    return skip(file.path, 'too_large', `${file.size} bytes (at most ${maxBytes})`, file.size);
  let bytes: Buffer;
  try {
    bytes = await readFile(file.path);
  } catch (error) {
    return skip(file.path, 'unreadable', errorMessage(error), file.size);
  }
  if (bytes.length > maxBytes)
    return skip(file.path, 'too_large', `${bytes.length} bytes (at most ${maxBytes})`, file.size);
  const text = decodeUtf8(bytes);
  if (text === null) return skip(file.path, 'invalid_utf8', 'not valid UTF-8', file.size);
  if (text.trim() === '') return skip(file.path, 'empty', 'no text', file.size);
  return text;
}

/** A document over the character limit is skipped, not fatal. */
export function tooLong(path: string, content: string, bytes: number): ReadSkip | null {
  return content.length > MAX_DOCUMENT_CHARS
    ? skip(path, 'too_large', `${content.length} characters (at most ${MAX_DOCUMENT_CHARS})`, bytes)
    : null;
}

export function errorMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}
