/**
 * `npm run bench -- store`: the embedded store's footprint, rebuild and durable appends (issue 23).
 *
 * 1. SciFact: `cairn org:create` and `cairn memory:ingest ORG corpus.jsonl` (the compiled CLI, as an operator runs
 *    it) into a fresh data directory; its bytes after a WAL checkpoint per byte of raw text (titles and text as the
 *    ingest's reader reads them), and per table.
 * 2. 100,000 synthetic chunks ingested through the real ingestion path (store-figures.ts ingestSynthetic); the same
 *    footprint figures; then `cairn projections:rebuild` (every projection) as a child process: its time and peak
 *    RSS (VmHWM) with what that memory was (peak-rss-preload.ts), and whether the rebuilt read models equal the
 *    live ones (a digest of every read-model document and every search document before and after). With
 *    CAIRN_BENCH_PROFILE_DIR set the rebuild runs under --cpu-prof and its busiest functions are printed.
 * 3. Durable single-event appends against plain SQLite insert + fsync on the same disk, interleaved in one run.
 */
import { CommandBus } from '@nestjs/cqrs';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { RegisterOrganizationCommand } from '../src/commands/organizations/register-organization.command';
import type { RegisterOrganizationResult } from '../src/commands/organizations/register-organization.command';
import { operatorContext } from '../src/commands/shared/command-context';
import { sqliteFile } from '../src/infrastructure/stores';
import { startBenchServer } from './bench-server';
import { profileArgs, profileDir, summarizeProfiles } from './cpu-profile';
import {
  appendRates,
  ingestSynthetic,
  measureDataDirectory,
  rawTextBytes,
  readModelDigest,
  runCli,
  type Footprint,
} from './store-figures';
import { SyntheticText } from './synthetic-text';
import type { BenchRow } from './table';

const TARGET_BYTES_PER_RAW_BYTE = 3.5;
const SYNTHETIC_CHUNKS = 100_000;
const TARGET_REBUILD_S = 7;
const TARGET_REBUILD_RSS_MB = 600;
const TARGET_APPEND_RATIO = 0.7;
const APPENDS_PER_ROUND = 1000;
const APPEND_ROUNDS = 6;
/** Tables smaller than this share of the directory are summed into one row. */
const TABLE_ROW_SHARE = 0.01;

/** The project root: the nearest directory above this file holding package.json (works from src and dist). */
function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

function scifactCorpus(): string {
  const dir = process.env.CAIRN_SCIFACT_DIR ?? resolve(projectRoot(), '../shared/data/beir-scifact');
  const corpus = join(dir, 'corpus.jsonl');
  if (!existsSync(corpus)) throw new Error(`BEIR SciFact not found in ${dir}`);
  return corpus;
}

/** Decimal megabytes (the targets are in MB). */
const MB = 1_000_000;

/** The ratio row, then one row per table (bytes per raw byte), the small ones and free pages summed. */
function footprintRows(label: string, measured: Footprint, rawBytes: number): BenchRow[] {
  const ratio = measured.directoryBytes / rawBytes;
  const rows: BenchRow[] = [
    {
      benchmark: `${label}: data directory / raw text (${(measured.directoryBytes / MB).toFixed(1)} MB / ${(rawBytes / MB).toFixed(1)} MB)`,
      value: ratio,
      unit: 'bytes/byte',
      target: `<= ${TARGET_BYTES_PER_RAW_BYTE}`,
      ok: ratio <= TARGET_BYTES_PER_RAW_BYTE,
    },
  ];
  let rest = measured.freeBytes;
  for (const { table, bytes } of measured.tables) {
    if (bytes < measured.directoryBytes * TABLE_ROW_SHARE) {
      rest += bytes;
      continue;
    }
    rows.push({
      benchmark: `  ${label}: ${table} (with its indexes)`,
      value: bytes / rawBytes,
      unit: 'bytes/byte',
    });
  }
  rows.push({
    benchmark: `  ${label}: other tables and free pages`,
    value: rest / rawBytes,
    unit: 'bytes/byte',
  });
  return rows;
}

async function scifactFootprint(dir: string): Promise<BenchRow[]> {
  const corpus = scifactCorpus();
  const dataDir = join(dir, 'store-scifact');
  mkdirSync(dataDir, { recursive: true });
  process.stderr.write('SciFact: cairn memory:ingest…\n');
  const org = await runCli(dataDir, ['org:create', '--name', 'SciFact']);
  await runCli(dataDir, [
    'memory:ingest',
    String(org.result.organization_id),
    corpus,
    '--audience',
    'internal',
    '--authority',
    'reference',
  ]);
  const raw = await rawTextBytes([corpus]);
  return footprintRows(
    `SciFact (${raw.documents} documents)`,
    measureDataDirectory(dataDir, sqliteFile(dataDir)),
    raw.bytes,
  );
}

async function syntheticFootprintAndRebuild(dir: string): Promise<BenchRow[]> {
  const dataDir = join(dir, 'store-synthetic');
  const server = await startBenchServer(dataDir);
  let ingested: { chunks: number; rawBytes: number; ms: number };
  try {
    const org = await server.app
      .get(CommandBus)
      .execute<RegisterOrganizationCommand, RegisterOrganizationResult>(
        new RegisterOrganizationCommand('Store bench', null, null, operatorContext('bench')),
      );
    process.stderr.write(`synthetic: ingesting ${SYNTHETIC_CHUNKS.toLocaleString('en-US')} chunks…\n`);
    ingested = await ingestSynthetic(server, org.organization_id, new SyntheticText(), SYNTHETIC_CHUNKS);
  } finally {
    await server.app.close();
  }
  const label = `${(ingested.chunks / 1000).toFixed(0)}k synthetic chunks`;
  const rows: BenchRow[] = [
    {
      benchmark: `${label}: ingestion through the real path, events to search index`,
      value: (ingested.chunks * 1000) / ingested.ms,
      unit: 'chunks/s',
    },
    ...footprintRows(label, measureDataDirectory(dataDir, sqliteFile(dataDir)), ingested.rawBytes),
  ];

  const live = await readModelDigest(sqliteFile(dataDir));
  process.stderr.write('synthetic: cairn projections:rebuild…\n');
  // With CAIRN_BENCH_PROFILE_DIR, the rebuild runs under --cpu-prof and its busiest functions are printed.
  const profile = profileDir('store-rebuild');
  const rebuild = await runCli(dataDir, ['projections:rebuild'], profileArgs(profile));
  if (profile !== null) process.stderr.write(`${summarizeProfiles(profile)}\n`);
  const rebuilt = await readModelDigest(sqliteFile(dataDir));
  const projections = rebuild.result.rebuilt as Array<{ duration_ms: number }>;
  // The projections replay one after the other (projection-runner.ts rebuild()): the rebuild is their sum.
  const rebuildS = projections.reduce((sum, p) => sum + p.duration_ms, 0) / 1000;
  const rssMb = rebuild.peakRssBytes / MB;
  const identical = live.digest === rebuilt.digest && live.documents === rebuilt.documents;
  rows.push(
    {
      benchmark: `${label}: projections:rebuild, every projection (${projections.length})`,
      value: rebuildS,
      unit: 's',
      target: `<= ${TARGET_REBUILD_S}`,
      ok: rebuildS <= TARGET_REBUILD_S,
    },
    { benchmark: `  ${label}: the rebuild command, start to exit`, value: rebuild.ms / 1000, unit: 's' },
    {
      benchmark: `${label}: projections:rebuild peak RSS (VmHWM)`,
      value: rssMb,
      unit: 'MB',
      target: `<= ${TARGET_REBUILD_RSS_MB}`,
      ok: rssMb <= TARGET_REBUILD_RSS_MB,
    },
    ...(rebuild.memory === null
      ? []
      : [
          {
            benchmark: `  largest sampled every 50 ms: V8 heap in use`,
            value: rebuild.memory.peakHeapUsedBytes / MB,
            unit: 'MB',
          },
          {
            benchmark: `  largest sampled: native buffers (external)`,
            value: rebuild.memory.peakExternalBytes / MB,
            unit: 'MB',
          },
          {
            benchmark: `  largest sampled: anonymous resident memory (heaps, SQLite page cache)`,
            value: rebuild.memory.peakAnonymousBytes / MB,
            unit: 'MB',
          },
          {
            benchmark: `  largest sampled: file-backed resident pages (code, libraries)`,
            value: rebuild.memory.peakFileBackedBytes / MB,
            unit: 'MB',
          },
        ]),
    {
      benchmark: `${label}: rebuilt read models equal the live ones (${live.documents.toLocaleString('en-US')} documents)`,
      value: identical ? 1 : 0,
      unit: identical ? 'yes' : 'no',
      target: '1 (identical)',
      ok: identical,
    },
  );
  return rows;
}

async function appendRows(dir: string): Promise<BenchRow[]> {
  process.stderr.write('durable appends against plain SQLite insert + fsync…\n');
  const rates = await appendRates(dir, APPENDS_PER_ROUND, APPEND_ROUNDS);
  const n = (APPENDS_PER_ROUND * APPEND_ROUNDS).toLocaleString('en-US');
  return [
    {
      benchmark: `durable appends (${n}, one event per transaction, acknowledged after its WAL sync)`,
      value: rates.durableAppends,
      unit: 'appends/s',
    },
    {
      benchmark: `plain SQLite INSERT + fsync (${n}, one per transaction, synchronous=FULL)`,
      value: rates.plainInserts,
      unit: 'inserts/s',
    },
    {
      benchmark: 'durable appends / plain SQLite insert + fsync (same run, interleaved)',
      value: rates.ratio,
      unit: 'ratio',
      target: `>= ${TARGET_APPEND_RATIO}`,
      ok: rates.ratio >= TARGET_APPEND_RATIO,
      decimals: 2,
    },
  ];
}

export async function benchStore(dir: string): Promise<BenchRow[]> {
  return [
    ...(await scifactFootprint(dir)),
    ...(await syntheticFootprintAndRebuild(dir)),
    ...(await appendRows(dir)),
  ];
}
