/**
 * `npm run eval:secrets`: the memory save path's UnsafeContentScanner over the public leaky-repo benchmark
 * (Plazmaz/leaky-repo, MIT; its README in the project's shared/data, see shared-data.ts). The archive is extracted to a temporary directory at
 * run time and deleted afterwards; nothing of it is copied into the project.
 *
 * Ground truth: `leaky-repo/.leaky-meta/secrets.csv`, one row per file: `name,num_risk,num_informative` (counts
 * of LINES; 96 risk + 79 informative = 175 lines in 44 files). The benchmark's published results count
 * per file "found/total" with the surplus as false positives; this script does the same, per line:
 *
 *   flagged(file) = number of DISTINCT lines on which a flag STARTS (a multi-line private key block counts once;
 *                   several flags on one line count once)
 *   total(file)   = num_risk + num_informative (0 for a file without a row)
 *   found(file)   = min(flagged, total)            -> summed: found/175
 *   fp(file)      = max(0, flagged - total)        -> summed: false positives
 *
 * The benchmark labels lines, not spans, and does not say WHICH line of a file holds what, so (like the published
 * tables) a flagged line is not checked against a specific labelled line: the per-file cap is the only guard.
 * Every regular file outside `.leaky-meta/` is scanned (README.md, LICENSE, .gitattributes have no row: each line
 * flagged there is a false positive). Binary files (containing NUL bytes: two Firefox SQLite databases) are
 * skipped and listed, as the save path only receives text. Each file is scanned as one field named `content`.
 *
 * The score is printed twice: with all flags, and without `credential_context` flags (user/host/URL/database
 * assignments reported next to a credential), so the part of the score that comes from those is visible.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { x as extract } from 'tar';
import { UnsafeContentScanner, type UnsafeFlag } from '../src/safety/unsafe-content/unsafe-content-scanner';
import { sharedDataOrSkip, sharedDataPath } from './shared-data';

const LABELLED_TOTAL = 175;

/** The archive: LEAKY_REPO_ARCHIVE, or `shared/data/secrets/leaky-repo.tar.gz` (see shared-data.ts). */
const archivePath = (): string =>
  process.env.LEAKY_REPO_ARCHIVE
    ? resolve(process.env.LEAKY_REPO_ARCHIVE)
    : sharedDataPath('secrets', 'leaky-repo.tar.gz');

function parseLabels(csv: string): Map<string, number> {
  const labels = new Map<string, number>();
  for (const raw of csv.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [name, risk, informative] = line.split(',');
    const total = Number(risk) + Number(informative);
    if (name && Number.isFinite(total)) labels.set(name, total);
  }
  return labels;
}

function listFiles(root: string, dir = root): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    const rel = relative(root, path).split(sep).join('/');
    if (rel === '.leaky-meta' || rel === '.git') continue;
    if (statSync(path).isDirectory()) files.push(...listFiles(root, path));
    else files.push(rel);
  }
  return files.sort();
}

interface FileScore {
  file: string;
  total: number;
  flagged: number;
  flaggedWithoutContext: number;
}

function score(rows: FileScore[], withContext: boolean): { found: number; fp: number } {
  let found = 0;
  let fp = 0;
  for (const row of rows) {
    const flagged = withContext ? row.flagged : row.flaggedWithoutContext;
    found += Math.min(flagged, row.total);
    fp += Math.max(0, flagged - row.total);
  }
  return { found, fp };
}

const distinctLines = (flags: UnsafeFlag[]): number => new Set(flags.map((flag) => flag.line)).size;

async function main(): Promise<void> {
  const archive = sharedDataOrSkip('eval:secrets', archivePath(), 'LEAKY_REPO_ARCHIVE');
  if (archive === null) return;
  const tmp = mkdtempSync(join(tmpdir(), 'cairn-leaky-'));
  try {
    await extract({ file: archive, cwd: tmp });
    const root = join(tmp, 'leaky-repo');
    const labels = parseLabels(readFileSync(join(root, '.leaky-meta', 'secrets.csv'), 'utf8'));
    const scanner = new UnsafeContentScanner();
    const rows: FileScore[] = [];
    const skipped: string[] = [];
    const perKind = new Map<string, number>();
    const perRule = new Map<string, number>();
    let millis = 0;
    for (const file of listFiles(root)) {
      const bytes = readFileSync(join(root, file));
      if (bytes.includes(0)) {
        skipped.push(file);
        continue;
      }
      const started = performance.now();
      const flags = await scanner.scan({ content: bytes.toString('utf8') });
      millis += performance.now() - started;
      for (const flag of flags) {
        perKind.set(flag.kind, (perKind.get(flag.kind) ?? 0) + 1);
        perRule.set(flag.rule, (perRule.get(flag.rule) ?? 0) + 1);
      }
      rows.push({
        file,
        total: labels.get(file) ?? 0,
        flagged: distinctLines(flags),
        flaggedWithoutContext: distinctLines(flags.filter((flag) => flag.kind !== 'credential_context')),
      });
    }
    const missingFiles = [...labels.keys()].filter((name) => !rows.some((row) => row.file === name));
    printReport(rows, labels, skipped, missingFiles, perKind, perRule, millis);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function printReport(
  rows: FileScore[],
  labels: Map<string, number>,
  skipped: string[],
  missingFiles: string[],
  perKind: Map<string, number>,
  perRule: Map<string, number>,
  millis: number,
): void {
  const out = (line = ''): void => void process.stdout.write(`${line}\n`);
  const labelled = [...labels.values()].reduce((a, b) => a + b, 0);
  const all = score(rows, true);
  const noContext = score(rows, false);
  out('leaky-repo secret scanning benchmark (UnsafeContentScanner, the memory save path scanner)');
  out(
    `files scanned: ${rows.length} (labelled: ${rows.filter((r) => labels.has(r.file)).length}/${labels.size})`,
  );
  out(`binary files skipped: ${skipped.length ? skipped.join(', ') : 'none'}`);
  if (missingFiles.length) out(`labelled files not found: ${missingFiles.join(', ')}`);
  const unlabelled = rows.filter((r) => !labels.has(r.file));
  out(
    `unlabelled files scanned: ${unlabelled.length} (${unlabelled.map((r) => r.file).join(', ')}); ` +
      `flagged lines in them: ${unlabelled.reduce((sum, r) => sum + r.flagged, 0)}`,
  );
  out(`labelled lines: ${labelled} (reference total ${LABELLED_TOTAL})`);
  out(`scan time: ${millis.toFixed(1)} ms`);
  out();
  out('file                                     found/total  false positives');
  out('---------------------------------------- -----------  ---------------');
  const sorted = [...rows].sort((a, b) => b.total - a.total || a.file.localeCompare(b.file));
  for (const row of sorted) {
    if (row.total === 0 && row.flagged === 0) continue;
    const found = Math.min(row.flagged, row.total);
    const fp = Math.max(0, row.flagged - row.total);
    out(`${row.file.padEnd(40)} ${`${found}/${row.total}`.padStart(11)}  ${String(fp).padStart(15)}`);
  }
  out();
  out(`FOUND: ${all.found}/${LABELLED_TOTAL}   FALSE POSITIVES: ${all.fp}`);
  out(
    `without credential_context flags: found ${noContext.found}/${LABELLED_TOTAL}, false positives ${noContext.fp}`,
  );
  out(
    'reference (published, c. 2020): gitleaks 127/175 (17 FP), detect-secrets 41/175 (0), truffleHog 40/175 (43)',
  );
  out();
  out(`flags per kind: ${[...perKind].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  out(
    `flags per rule: ${[...perRule]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  const missed = sorted.filter((row) => row.total > 0 && row.flagged < row.total);
  out();
  out(`files with missed lines (${missed.length}):`);
  for (const row of missed) out(`  ${row.file}: ${row.flagged}/${row.total}`);
}

/** Settles when the run has ended (a test awaits it). */
export const finished = main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
