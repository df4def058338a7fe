import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { CliResult } from './cli';

/**
 * Scans for text that should have been erased: raw bytes of every file and decoded SQLite values. The files are read
 * in a child process, never in this one: a test process hosting a server must not open and close the server's
 * SQLite files (data-dir-scan-child.js says why).
 */

const SCAN_CHILD = join(__dirname, 'data-dir-scan-child.js');

interface DataDirScan {
  raw: { file: string; encoding: string; needle: string }[];
  values: { file: string; table: string; column: string; label: string; needle: string }[];
}

function scanDataDir(dir: string, needles: string[]): DataDirScan {
  const out = execFileSync(process.execPath, [SCAN_CHILD, dir, '--', ...needles], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out) as DataDirScan;
}

/** The needles found in the raw bytes (UTF-8) of some file under `dir`, read in a child process. */
export function needlesInFiles(dir: string, needles: string[]): string[] {
  const { raw } = scanDataDir(dir, needles);
  return [...new Set(raw.filter((hit) => hit.encoding === 'utf8').map((hit) => hit.needle))];
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
  const { raw, values } = scanDataDir(dir, sentences.flatMap(variants));
  const hits = [
    ...raw.map((hit) => `${hit.file.slice(dir.length)} (raw ${hit.encoding})`),
    ...values.map(
      (hit) => `${hit.file.slice(dir.length)} ${hit.table}.${hit.column} [${hit.label}] (decoded value)`,
    ),
  ];
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
