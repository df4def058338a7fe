/**
 * `npm run bench -- scale`: one organization of 1,000,000 chunks (CAIRN_BENCH_SCALE_CHUNKS to change it), built
 * through the real ingestion path: BEIR SciFact first (5,183 abstracts, 8,564 chunks, as memory:ingest ingests
 * corpus.jsonl, so quality can still be measured), then synthetic documents (synthetic-text.ts: a Zipf-distributed
 * vocabulary of 30,000 word-like tokens, 8 chunks of ~150 words per document) up to the size. Then, in order:
 *
 * 1. footprint: the data directory (WAL checkpointed) per byte of raw text (titles and bodies as given);
 * 2. the index's own query time in the bench process (scale/index-queries.ts): each synthetic query for 10 and
 *    100 items (as limit-10 and limit-100 searches ask), cold (a fresh index each) and warm;
 * 3. HTTP search on a Cairn server process (CAIRN_HTTP_WORKERS=2, one per core of the 2-core target): 200
 *    synthetic queries and the 300 SciFact test queries, each sent with limit 10 and limit 100 interleaved, one
 *    request at a time (depth.ts), after a warm-up not counted; SciFact nDCG@10 and Recall@100 within the whole
 *    corpus (limit 100); the server's memory afterwards: VmRSS and VmHWM summed over its processes;
 * 4. `cairn projections:rebuild` and `cairn audit:verify` as child processes: time, and the rebuild's peak RSS;
 * 5. durable event appends against plain SQLite insert + fsync on the same disk, interleaved (store-figures.ts
 *    appendRates, as the store bench measures them).
 */
import { CommandBus } from '@nestjs/cqrs';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RegisterConnectorCommand } from '../src/commands/connectors/register-connector.command';
import type { RegisterConnectorResult } from '../src/commands/connectors/register-connector.command';
import { RegisterOrganizationCommand } from '../src/commands/organizations/register-organization.command';
import type { RegisterOrganizationResult } from '../src/commands/organizations/register-organization.command';
import { operatorContext } from '../src/commands/shared/command-context';
import { sqliteFile } from '../src/infrastructure/stores';
import { startBenchServer, type BenchServer } from './bench-server';
import { profileArgs, profileDir, summarizeProfiles } from './cpu-profile';
import { ndcgAt, recallAt } from './retrieval-metrics';
import { runCli } from './scale/cli-run';
import { DEEP_LIMIT, depthRows, interleavedDepth, SEARCH_PATH } from './scale/depth';
import { dataDirectoryBytes } from './scale/footprint';
import { indexQueryRowsInChild } from './scale/index-queries';
import { treeMemory } from './scale/process-memory';
import { ingestSciFact, scifactTestQueries, type SciFactQueries } from './scale/scifact';
import { ingestSynthetic } from './scale/synthetic-ingest';
import { appendRates } from './store-figures';
import { startServerProcess } from './server-process';
import { SyntheticText } from './synthetic-text';
import type { BenchRow } from './table';

const DEFAULT_CHUNKS = 1_000_000;
const HTTP_WORKERS = 2;
const QUERY_COUNT = 200;
/** The fresh server process reads and caches postings and rows of a large index: a long first warm-up. */
const FIRST_WARMUP_S = 15;
const WARMUP_S = 3;
const DURATION_S = 10;
const MB = 1024 * 1024;

export const SCALE_TARGETS = {
  searchP50Ms: 3,
  serverRssBytes: 1.5 * 1024 * MB,
  bytesPerRawByte: 3.5,
  /** At 100k chunks. */
  rebuildSeconds: 7,
  rebuildPeakBytes: 600 * MB,
  appendRatio: 0.7,
  ingestChunksPerSecond: 1500,
};

function chunkCount(): number {
  const raw = process.env.CAIRN_BENCH_SCALE_CHUNKS;
  const value = raw === undefined ? DEFAULT_CHUNKS : Number(raw);
  if (!Number.isSafeInteger(value) || value < 10_000)
    throw new Error('CAIRN_BENCH_SCALE_CHUNKS: at least 10000');
  return value;
}

function label(chunks: number): string {
  return chunks >= 1_000_000 ? `${chunks / 1_000_000}M chunks` : `${Math.round(chunks / 1000)}k chunks`;
}

interface Organization {
  id: number;
  token: string;
}

async function register(server: BenchServer): Promise<Organization> {
  const commands = server.app.get(CommandBus);
  const context = operatorContext('bench');
  const org = await commands.execute<RegisterOrganizationCommand, RegisterOrganizationResult>(
    new RegisterOrganizationCommand('Scale bench', null, null, context),
  );
  const connector = await commands.execute<RegisterConnectorCommand, RegisterConnectorResult>(
    new RegisterConnectorCommand(org.organization_id, 'bench', ['memory_search'], 'strict', context),
  );
  return { id: org.organization_id, token: connector.token };
}

/** nDCG@10 and Recall@100 of the SciFact test queries over HTTP (limit 100, one at a time). */
export async function scifactQuality(
  baseUrl: string,
  token: string,
  queries: SciFactQueries,
  items: ReadonlyMap<number, string>,
): Promise<{ ndcg: number; recall: number }> {
  let ndcg = 0;
  let recall = 0;
  for (let n = 0; n < queries.ids.length; n++) {
    const response = await fetch(`${baseUrl}${SEARCH_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: queries.texts[n], limit: DEEP_LIMIT }),
    });
    const body = (await response.json()) as { results?: Array<{ memory_item_id: number }> };
    if (response.status !== 200 || body.results === undefined)
      throw new Error(`search answered ${response.status}`);
    const ranked = body.results.map(
      (result) => items.get(result.memory_item_id) ?? `other:${result.memory_item_id}`,
    );
    const judged = queries.qrels.get(queries.ids[n]) ?? new Map<string, number>();
    ndcg += ndcgAt(10, ranked, judged);
    recall += recallAt(100, ranked, judged);
  }
  return { ndcg: ndcg / queries.ids.length, recall: recall / queries.ids.length };
}

/**
 * Runs one later phase; a failure (e.g. a child process killed for memory) becomes a failed row and the message
 * on stderr, so the figures measured before it are still printed.
 */
async function phase(rows: BenchRow[], what: string, run: () => Promise<BenchRow[]>): Promise<void> {
  try {
    rows.push(...(await run()));
  } catch (error: unknown) {
    process.stderr.write(
      `scale: ${what} failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    rows.push({ benchmark: `${what} FAILED (see stderr)`, value: 0, unit: '', ok: false });
  }
}

export async function benchScale(dir: string): Promise<BenchRow[]> {
  const size = chunkCount();
  const at = label(size);
  const dataDir = join(dir, 'scale');
  const rows: BenchRow[] = [];
  const text = new SyntheticText();
  const queries = Array.from({ length: QUERY_COUNT }, () => text.query());
  const scifact = scifactTestQueries();

  // 1. Ingestion and footprint.
  const server = await startBenchServer(dataDir);
  let org: Organization;
  let items: Map<number, string>;
  let rawBytes: number;
  try {
    org = await register(server);
    process.stderr.write('scale: SciFact corpus.jsonl as memory:ingest ingests it…\n');
    const sci = await ingestSciFact(server.app, org.id);
    items = sci.items;
    process.stderr.write(`scale: synthetic documents up to ${at}…\n`);
    const synthetic = await ingestSynthetic(server, org.id, text, size);
    rawBytes = sci.rawBytes + synthetic.rawBytes;
    const rate = (synthetic.chunks * 1000) / synthetic.ms;
    rows.push({
      benchmark: `ingestion to ${at} (real path; ${synthetic.chunks.toLocaleString('en-US')} synthetic chunks after SciFact)`,
      value: rate,
      unit: 'chunks/s',
      target: `>= ${SCALE_TARGETS.ingestChunksPerSecond.toLocaleString('en-US')}`,
      ok: rate >= SCALE_TARGETS.ingestChunksPerSecond,
    });
  } finally {
    await server.app.close();
  }
  const bytes = dataDirectoryBytes(dataDir);
  rows.push(
    { benchmark: `raw text ingested (${at})`, value: rawBytes / MB, unit: 'MiB' },
    { benchmark: `data directory after ingest, WAL checkpointed (${at})`, value: bytes / MB, unit: 'MiB' },
    {
      benchmark: `data directory / raw text (${at})`,
      value: bytes / rawBytes,
      unit: '×',
      target: `<= ${SCALE_TARGETS.bytesPerRawByte}`,
      ok: bytes / rawBytes <= SCALE_TARGETS.bytesPerRawByte,
      decimals: 2,
    },
  );

  // 2. The index's own query time, in a fresh process (no server yet: its caches are the ones measured).
  process.stderr.write(`scale: index queries in process at ${at}…\n`);
  rows.push(
    ...(await indexQueryRowsInChild({
      sqliteFile: sqliteFile(dataDir),
      organizationId: org.id,
      queries,
      label: `synthetic queries, ${at}`,
    })),
  );

  // 3. HTTP search on a server process.
  process.stderr.write(`scale: HTTP search at ${at}…\n`);
  const profiles = profileDir(`scale-search-${at}`);
  const cairn = await startServerProcess(
    dataDir,
    { CAIRN_HTTP_WORKERS: String(HTTP_WORKERS) },
    profileArgs(profiles),
  );
  try {
    const synthetic = await interleavedDepth(cairn.baseUrl, org.token, queries, DURATION_S, FIRST_WARMUP_S);
    rows.push(
      ...depthRows(`synthetic queries, ${at}`, synthetic, { p50: SCALE_TARGETS.searchP50Ms, ratio: false }),
    );
    const sci = await interleavedDepth(cairn.baseUrl, org.token, scifact.texts, DURATION_S, WARMUP_S);
    rows.push(...depthRows(`SciFact test queries within ${at}`, sci, { ratio: false }));
    const quality = await scifactQuality(cairn.baseUrl, org.token, scifact, items);
    rows.push(
      { benchmark: `SciFact test nDCG@10 within ${at}`, value: quality.ndcg, unit: 'nDCG', decimals: 4 },
      {
        benchmark: `SciFact test Recall@100 within ${at}`,
        value: quality.recall,
        unit: 'recall',
        decimals: 4,
      },
    );
    const memory = treeMemory(cairn.pid);
    rows.push(
      {
        benchmark: `server RSS after the searches (${memory.processes} processes, sum of VmRSS, ${at})`,
        value: memory.rssBytes / MB,
        unit: 'MiB',
        target: `<= ${SCALE_TARGETS.serverRssBytes / MB}`,
        ok: memory.rssBytes <= SCALE_TARGETS.serverRssBytes,
      },
      {
        benchmark: `  of which anonymous (RssAnon: heaps, caches)`,
        value: memory.anonBytes / MB,
        unit: 'MiB',
      },
      {
        benchmark: `  of which file pages (RssFile: code, libraries, mapped files)`,
        value: memory.fileBytes / MB,
        unit: 'MiB',
      },
      { benchmark: `server peak RSS (sum of VmHWM, ${at})`, value: memory.peakBytes / MB, unit: 'MiB' },
    );
  } finally {
    await cairn.stop();
  }
  if (profiles !== null)
    process.stderr.write(`scale: where the searches spent their time\n${summarizeProfiles(profiles)}\n`);

  // 4. Operator commands over the same data.
  await phase(rows, 'projections:rebuild', async () => {
    process.stderr.write(`scale: projections:rebuild at ${at}…\n`);
    const rebuild = await runCli(dataDir, ['projections:rebuild']);
    const targets = size === 100_000;
    return [
      {
        benchmark: `projections:rebuild (${at}, CLI process)`,
        value: rebuild.ms / 1000,
        unit: 's',
        ...(targets
          ? {
              target: `<= ${SCALE_TARGETS.rebuildSeconds}`,
              ok: rebuild.ms <= SCALE_TARGETS.rebuildSeconds * 1000,
            }
          : { target: `(${SCALE_TARGETS.rebuildSeconds} s at 100k)` }),
      },
      {
        benchmark: `projections:rebuild peak RSS (${at}, VmHWM)`,
        value: rebuild.peakRssBytes / MB,
        unit: 'MiB',
        ...(targets
          ? {
              target: `<= ${SCALE_TARGETS.rebuildPeakBytes / MB}`,
              ok: rebuild.peakRssBytes <= SCALE_TARGETS.rebuildPeakBytes,
            }
          : { target: `(${SCALE_TARGETS.rebuildPeakBytes / MB} MiB at 100k)` }),
      },
    ];
  });
  await phase(rows, 'audit:verify', async () => {
    process.stderr.write(`scale: audit:verify at ${at}…\n`);
    const verify = await runCli(dataDir, ['audit:verify']);
    const verified = JSON.parse(verify.stdout) as { events?: number };
    return [
      {
        benchmark: `audit:verify (${at}, ${(verified.events ?? 0).toLocaleString('en-US')} events, CLI process)`,
        value: verify.ms / 1000,
        unit: 's',
      },
    ];
  });

  // 5. Appends on the same disk.
  await phase(rows, 'appends', async () => {
    const appendsDir = join(dir, 'appends');
    mkdirSync(appendsDir, { recursive: true });
    const appends = await appendRates(appendsDir, 500, 4).finally(() =>
      rmSync(appendsDir, { recursive: true, force: true }),
    );
    return [
      {
        benchmark: 'durable event appends (one at a time, each synced)',
        value: appends.durableAppends,
        unit: 'appends/s',
      },
      {
        benchmark: 'plain SQLite insert + fsync (same disk, interleaved)',
        value: appends.plainInserts,
        unit: 'inserts/s',
      },
      {
        benchmark: 'event appends / plain SQLite inserts (same run)',
        value: appends.ratio,
        unit: '×',
        target: `>= ${SCALE_TARGETS.appendRatio}`,
        ok: appends.ratio >= SCALE_TARGETS.appendRatio,
        decimals: 2,
      },
    ];
  });
  return rows;
}
