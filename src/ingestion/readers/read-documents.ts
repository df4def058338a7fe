import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import { ValidationFailedError } from '../../common/errors';
import { readHtml } from './html-reader';
import { readJson } from './json-reader';
import { readJsonl } from './jsonl-reader';
import { readMarkdown } from './markdown-reader';
import { skip, type FileFormat, type ReadEntry, type ReadOptions, type SourceFile } from './reader-types';
import { readText } from './text-reader';

export type { FileFormat, ReadEntry, ReadOptions, SourceFile } from './reader-types';

const FORMATS: Record<string, FileFormat> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
  '.html': 'html',
  '.htm': 'html',
  '.json': 'json',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
};

const READERS: Record<FileFormat, (file: SourceFile, options: ReadOptions) => AsyncIterable<ReadEntry>> = {
  markdown: readMarkdown,
  text: readText,
  html: readHtml,
  json: readJson,
  jsonl: readJsonl,
};

/** The format a file name says (by extension, case-insensitive), or null. */
export function formatOf(path: string): FileFormat | null {
  return FORMATS[extname(path).toLowerCase()] ?? null;
}

/**
 * Every file a PATH argument names: the file itself, or a directory's files recursively in a deterministic order
 * (names sorted by code point; dotfiles and `node_modules` skipped; symbolic links followed, each directory read
 * once). Files of unknown formats are listed with `format: null` so they can be counted.
 *
 * Document keys do not depend on the working directory or on how the path was spelled: a directory's files are
 * `file:<directory name>/<path below it>` and a single file is `file:<parent directory name>/<file name>`, so
 * `memory:ingest ORG docs` and `memory:ingest ORG docs/faq.md` (from anywhere) name the same document.
 */
export async function listFiles(root: string): Promise<SourceFile[]> {
  let info;
  try {
    info = await stat(root);
  } catch {
    throw new ValidationFailedError(`${root} does not exist or cannot be read`, [
      { field: 'PATH', message: `${root}: no such file or directory` },
    ]);
  }
  const absolute = resolve(root);
  if (info.isFile()) {
    const label = posixJoin(basename(dirname(absolute)), basename(absolute));
    return [sourceFile(root, label, info.size)];
  }
  if (!info.isDirectory()) {
    throw new ValidationFailedError(`${root} is neither a file nor a directory`, [
      { field: 'PATH', message: `${root}: not a regular file or directory` },
    ]);
  }
  const files: SourceFile[] = [];
  await walk(root, basename(absolute), files, new Set([await realpath(root)]));
  return files;
}

/** The entries (documents and skips) of one listed file. */
export function readFile(file: SourceFile, options: ReadOptions): AsyncIterable<ReadEntry> {
  if (file.format === null) {
    return single(
      skip(
        file.path,
        'unsupported_type',
        `unsupported file type ${extname(file.path) || '(none)'}`,
        file.size,
      ),
    );
  }
  return READERS[file.format](file, options);
}

/** Every document (and skip) under one PATH argument, in listing order. */
export async function* readDocuments(path: string, options: ReadOptions): AsyncIterable<ReadEntry> {
  for (const file of await listFiles(path)) yield* readFile(file, options);
}

async function walk(directory: string, label: string, files: SourceFile[], seen: Set<string>): Promise<void> {
  const names = (await readdir(directory)).filter((name) => !name.startsWith('.') && name !== 'node_modules');
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    const path = join(directory, name);
    const childLabel = posixJoin(label, name);
    let info;
    try {
      info = await stat(path);
    } catch {
      files.push({ path, key: `file:${childLabel}`, label: childLabel, size: 0, format: formatOf(name) });
      continue; // a dangling link: its reader reports it unreadable
    }
    if (info.isDirectory()) {
      const real = await realpath(path);
      if (seen.has(real)) continue;
      seen.add(real);
      await walk(path, childLabel, files, seen);
    } else if (info.isFile()) {
      files.push(sourceFile(path, childLabel, info.size));
    }
  }
}

function sourceFile(path: string, label: string, size: number): SourceFile {
  return { path, key: `file:${label}`, label, size, format: formatOf(path) };
}

function posixJoin(...parts: string[]): string {
  return parts
    .filter((part) => part !== '')
    .join('/')
    .split(sep)
    .join('/');
}

async function* single(entry: ReadEntry): AsyncIterable<ReadEntry> {
  yield entry;
}
