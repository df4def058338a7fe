import { recordEntry } from './json-record';
import {
  MAX_JSON_FILE_BYTES,
  readWholeFile,
  skip,
  type ReadEntry,
  type ReadOptions,
  type SourceFile,
} from './reader-types';

/** Wrappers some exports put around their array of documents. */
const WRAPPERS = ['documents', 'items', 'records', 'data'];

/**
 * A `.json` file holds one document (an object) or many (an array of objects, or an object whose `documents`,
 * `items`, `records` or `data` is that array). The file is parsed whole, so it is bounded (MAX_JSON_FILE_BYTES);
 * larger collections belong in JSONL, which streams.
 */
export async function* readJson(file: SourceFile, options: ReadOptions): AsyncGenerator<ReadEntry> {
  const text = await readWholeFile(file, MAX_JSON_FILE_BYTES);
  if (typeof text !== 'string') {
    yield text;
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    yield skip(file.path, 'invalid_json', error instanceof Error ? error.message : 'invalid JSON', file.size);
    return;
  }
  const records = recordsOf(value);
  if (records.length === 0) {
    yield skip(file.path, 'empty', 'no records', file.size);
    return;
  }
  let accounted = 0;
  for (let index = 0; index < records.length; index++) {
    // Spread the file's bytes over its records, for progress.
    const upTo = Math.floor(((index + 1) * file.size) / records.length);
    const bytes = upTo - accounted;
    accounted = upTo;
    yield recordEntry(records[index], { file, index, where: `record ${index}`, bytes }, options);
  }
}

function recordsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const hasText = ['content', 'text', 'body'].some((name) =>
      Object.prototype.hasOwnProperty.call(record, name),
    );
    if (!hasText) {
      for (const name of WRAPPERS) {
        const wrapped = Object.prototype.hasOwnProperty.call(record, name) ? record[name] : undefined;
        if (Array.isArray(wrapped)) return wrapped;
      }
    }
  }
  return [value];
}
