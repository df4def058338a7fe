import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CliResult } from './cli';

/** Scans for text that should have been erased: raw bytes of every file and decoded SQLite values. */

const SCAN_CHILD = join(__dirname, 'sqlite-value-scan-child.js');

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** Variants an index might store: as written, NFD, lower-cased, accents folded. */
function variants(sentence: string): string[] {
  const folded = sentence.normalize('NFD').replace(/\p{M}/gu, '');
  return [
    ...new Set([
      sentence,
      sentence.normalize('NFD'),
      sentence.normalize('NFC'),
      folded,
      folded.toLowerCase(),
    ]),
  ];
}

/** Every place (raw bytes of any file, or a decoded SQLite value) one of the sentences survives. */
export function survivors(dir: string, sentences: string[]): string[] {
  const needles = sentences.flatMap(variants);
  const hits: string[] = [];
  const files = filesUnder(dir);
  for (const file of files) {
    const bytes = readFileSync(file);
    for (const needle of needles) {
      for (const encoding of ['utf8', 'utf16le'] as const) {
        if (bytes.includes(Buffer.from(needle, encoding)))
          hits.push(`${file.slice(dir.length)} (raw ${encoding})`);
      }
    }
  }
  const sqlite = files.filter((f) => readFileSync(f).subarray(0, 15).toString() === 'SQLite format 3');
  const out = execFileSync(process.execPath, [SCAN_CHILD, ...sqlite, '--', ...needles], { encoding: 'utf8' });
  for (const hit of JSON.parse(out) as { file: string; table: string; column: string; label: string }[]) {
    hits.push(`${hit.file.slice(dir.length)} ${hit.table}.${hit.column} [${hit.label}] (decoded value)`);
  }
  return [...new Set(hits)];
}

export function outputHas(result: CliResult, sentences: string[]): boolean {
  return sentences.flatMap(variants).some((n) => (result.stdout + result.stderr).includes(n));
}

export async function ok(result: Promise<CliResult>): Promise<CliResult> {
  const r = await result;
  if (r.code !== 0) throw new Error(`cli failed: ${r.stdout} ${r.stderr}`);
  return r;
}
