import { createReadStream } from 'node:fs';
import { recordEntry } from './json-record';
import {
  decodeUtf8,
  errorMessage,
  MAX_JSONL_LINE_BYTES,
  skip,
  type ReadEntry,
  type ReadOptions,
  type SourceFile,
} from './reader-types';

const NEWLINE = 0x0a;

/** One line of a JSONL file: its bytes (without the newline), or null when it overflowed the line bound. */
interface Line {
  index: number;
  bytes: Buffer | null;
  /** Bytes consumed, newline included (progress). */
  size: number;
}

/**
 * A `.jsonl` file holds one JSON object per line and is streamed: at most one line (MAX_JSONL_LINE_BYTES) is held
 * in memory, whatever the file's size. Blank lines are ignored; a line that is too long, not UTF-8, not JSON or
 * not an object is skipped and reported, and the lines after it are still read. A record's index is its 0-based
 * line index.
 */
export async function* readJsonl(file: SourceFile, options: ReadOptions): AsyncGenerator<ReadEntry> {
  let carried = 0;
  let records = 0;
  try {
    for await (const line of lines(file.path)) {
      const where = `line ${line.index + 1}`;
      const path = `${file.path}#${line.index}`;
      const size = line.size + carried;
      if (line.bytes === null) {
        carried = 0;
        records++;
        yield skip(path, 'too_large', `${where}: longer than ${MAX_JSONL_LINE_BYTES} bytes`, size);
        continue;
      }
      const text = decodeUtf8(line.bytes);
      if (text === null) {
        carried = 0;
        records++;
        yield skip(path, 'invalid_utf8', `${where}: not valid UTF-8`, size);
        continue;
      }
      if (text.trim() === '') {
        carried = size;
        continue;
      }
      carried = 0;
      records++;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        const reason = error instanceof Error ? error.message : 'invalid JSON';
        yield skip(path, 'invalid_json', `${where}: ${reason}`, size);
        continue;
      }
      yield recordEntry(value, { file, index: line.index, where, bytes: size }, options);
    }
  } catch (error) {
    yield skip(file.path, 'unreadable', errorMessage(error), 0);
    return;
  }
  if (records === 0) yield skip(file.path, 'empty', 'no records', carried);
}

/** Splits a file into lines at LF bytes (a trailing CR is dropped), streaming. */
async function* lines(path: string): AsyncGenerator<Line> {
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  let parts: Buffer[] = [];
  let held = 0;
  let overflow = false;
  let consumed = 0;
  let index = 0;
  const take = (tail: Buffer): Line => {
    const size = consumed + tail.length;
    let bytes: Buffer | null = null;
    if (!overflow && held + tail.length <= MAX_JSONL_LINE_BYTES) {
      bytes = parts.length === 0 ? tail : Buffer.concat([...parts, tail]);
      if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
    }
    const line = { index: index++, bytes, size };
    parts = [];
    held = 0;
    overflow = false;
    consumed = 0;
    return line;
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) {
        const rest = chunk.subarray(start);
        consumed += rest.length;
        if (!overflow && held + rest.length <= MAX_JSONL_LINE_BYTES) {
          // Copy: the stream may reuse its buffers.
          parts.push(Buffer.from(rest));
          held += rest.length;
        } else {
          overflow = true;
          parts = [];
          held = 0;
        }
        break;
      }
      const line = take(chunk.subarray(start, end));
      line.size += 1;
      yield line;
      start = end + 1;
    }
  }
  if (consumed > 0 || parts.length > 0) yield take(Buffer.alloc(0));
}
