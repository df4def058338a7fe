import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { listFiles, readFile } from '../../../src/ingestion/readers/read-documents';
import type {
  ReadDocument,
  ReadEntry,
  ReadOptions,
  ReadSkip,
} from '../../../src/ingestion/readers/reader-types';

export const OPTIONS: ReadOptions = { audience: 'internal', authority_level: 'reference', expires_at: null };

/** Writes files (path → content) under `root`, creating directories. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** Every entry read from a PATH argument. */
export async function readAll(path: string, options: ReadOptions = OPTIONS): Promise<ReadEntry[]> {
  const entries: ReadEntry[] = [];
  for (const file of await listFiles(path)) {
    for await (const entry of readFile(file, options)) entries.push(entry);
  }
  return entries;
}

export function documents(entries: ReadEntry[]): ReadDocument[] {
  return entries.filter((entry): entry is ReadDocument => entry.kind === 'document');
}

export function skips(entries: ReadEntry[]): ReadSkip[] {
  return entries.filter((entry): entry is ReadSkip => entry.kind === 'skipped');
}

/** The one document a file gives (fails otherwise). */
export async function readOne(path: string, options: ReadOptions = OPTIONS): Promise<ReadDocument> {
  const entries = await readAll(path, options);
  if (entries.length !== 1 || entries[0].kind !== 'document') {
    throw new Error(`expected one document, got ${JSON.stringify(entries)}`);
  }
  return entries[0];
}
