import { startBenchServer } from './bench-server';
import { sharedDataOrSkip, sharedDataPath } from './shared-data';
/**
 * `npm run eval:retrieval`: retrieval quality of memory search on BEIR SciFact, end to end.
 *
 * A real Cairn server (in-process, HTTP on 127.0.0.1, embedded stores in a temporary directory) gets one
 * organization and a connector holding `memory_search`. `corpus.jsonl` is ingested exactly as
 * `cairn memory:ingest ORG …/corpus.jsonl` ingests it (the same MemoryIngestRun: the JSONL reader takes `_id`,
 * `title` and `text` of each record, then IngestDocumentCommand → events → memory projection → search index).
 * Then the queries of each split are sent to `POST /app/api/tool-connectors/v1/memory/search` with limit 100, and
 * nDCG@10 and Recall@100 are computed from its qrels (trec_eval definitions: gain = graded relevance, log2
 * discount, ideal DCG from the query's qrels; recall over the documents judged relevant). Every figure is over
 * HTTP.
 *
 * Two splits: `test` (300 queries) carries the targets; `train` (809 queries) is where ranking parameters such
 * as the title boost are chosen, so that the test figures are not tuned on the test queries.
 *
 * The data set is read from the project's `shared/data/beir-scifact` (see shared-data.ts; or CAIRN_SCIFACT_DIR);
 * it is never copied into the project. Without it the evaluation says so and exits 0 as skipped.
 */
import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listPaths, MemoryIngestRun } from '../src/cli/memory-ingest-run';
import { RegisterConnectorCommand } from '../src/commands/connectors/register-connector.command';
import type { RegisterConnectorResult } from '../src/commands/connectors/register-connector.command';
import { RegisterOrganizationCommand } from '../src/commands/organizations/register-organization.command';
import type { RegisterOrganizationResult } from '../src/commands/organizations/register-organization.command';
import { operatorContext } from '../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../src/commands/shared/stream-command-executor';
import { STORES, type Stores } from '../src/infrastructure/stores';
import { SEARCH_COLLAPSE_FIELD } from '../src/infrastructure/search/search-index.port';
import { ndcgAt, parseQrels, readJsonl, recallAt, type Qrels } from './retrieval-metrics';
import { printTable, type BenchRow } from './table';
import { UnsafeContentScanner } from '../src/safety/unsafe-content/unsafe-content-scanner';

const TARGET_NDCG = 0.679;
const TARGET_RECALL = 0.925;
const SEARCH_PATH = '/app/api/tool-connectors/v1/memory/search';
const SPLITS = ['test', 'train'] as const;
type Split = (typeof SPLITS)[number];

/** BEIR SciFact: CAIRN_SCIFACT_DIR, or `shared/data/beir-scifact` (see shared-data.ts); null when absent. */
function dataDir(): string | null {
  const dir = process.env.CAIRN_SCIFACT_DIR ?? sharedDataPath('beir-scifact');
  return sharedDataOrSkip('eval:retrieval', join(dir, 'corpus.jsonl'), 'CAIRN_SCIFACT_DIR') && dir;
}

/**
 * Ingests corpus.jsonl as `memory:ingest` does; returns memory_item_id → corpus _id (the record id ends the
 * document key, `file:beir-scifact/corpus.jsonl#<_id>`), the document and chunk counts and the time.
 */
async function ingestCorpus(
  app: NestFastifyApplication,
  organizationId: number,
  corpusFile: string,
): Promise<{ items: Map<number, string>; documents: number; chunks: number; ms: number }> {
  const stores = app.get<Stores>(STORES);
  const run = new MemoryIngestRun(
    app.get(CommandBus),
    app.get(StreamCommandExecutor),
    stores.eventStore,
    stores,
    app.get(UnsafeContentScanner),
  );
  const report = await run.run(
    organizationId,
    await listPaths([corpusFile]),
    { audience: 'internal', authority_level: 'reference', expires_at: null },
    operatorContext('eval-retrieval'),
  );
  if (report.skipped.length > 0) {
    const first = report.skipped[0];
    throw new Error(`${report.skipped.length} record(s) skipped, e.g. ${first.path}: ${first.message}`);
  }
  const items = new Map(
    report.items.map((item) => [
      item.memory_item_id,
      item.document_key.slice(item.document_key.lastIndexOf('#') + 1),
    ]),
  );
  const { totals } = report;
  return { items, documents: totals.documents, chunks: totals.chunks, ms: totals.duration_ms };
}

interface SearchResponse {
  ok: boolean;
  results?: Array<{ memory_item_id: number }>;
  error?: unknown;
}

async function search(baseUrl: string, token: string, query: string): Promise<number[]> {
  const response = await fetch(`${baseUrl}${SEARCH_PATH}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, limit: 100 }),
  });
  const body = (await response.json()) as SearchResponse;
  if (response.status !== 200 || !body.ok || body.results === undefined) {
    throw new Error(`search answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  return body.results.map((result) => result.memory_item_id);
}

/** The same queries straight to the search index, as the memory search handler asks it for limit 100. */
async function rawIndexLatencies(
  app: NestFastifyApplication,
  organizationId: number,
  clientKey: string,
  texts: readonly string[],
  titleBoost: number,
): Promise<number[]> {
  const index = app.get<Stores>(STORES).searchIndex;
  const latencies: number[] = [];
  for (const text of texts) {
    const started = performance.now();
    await index.search({
      organization_id: String(organizationId),
      text,
      filters: { expires_at_ms: { gt: Date.now(), or_null: true } },
      any_of: [
        { visibility: 'organization_internal' },
        { visibility: 'tool_private', owner_client_key: clientKey },
      ],
      // As a limit-100 search asks: 100 items, each with its best 10 matching chunks.
      limit: 100,
      title_boost: titleBoost,
      collapse: { field: SEARCH_COLLAPSE_FIELD, max_members: 10 },
    });
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

interface SplitResult {
  split: Split;
  queries: number;
  ndcg: number;
  recall: number;
  /** HTTP latencies of the split's searches (ms, ascending). */
  latencies: number[];
}

/** Sends every query of one split to HTTP search (limit 100, one at a time) and averages the measures. */
async function evaluateSplit(
  split: Split,
  qrels: Qrels,
  queries: ReadonlyMap<string, string>,
  items: ReadonlyMap<number, string>,
  search: (text: string) => Promise<number[]>,
): Promise<SplitResult> {
  let ndcg = 0;
  let recall = 0;
  const latencies: number[] = [];
  for (const [queryId, judged] of qrels) {
    const text = queries.get(queryId);
    if (text === undefined) throw new Error(`${split} query ${queryId} is not in queries.jsonl`);
    const started = performance.now();
    const itemIds = await search(text);
    latencies.push(performance.now() - started);
    const ranked = itemIds.map((id) => items.get(id) ?? `unknown:${id}`);
    ndcg += ndcgAt(10, ranked, judged);
    recall += recallAt(100, ranked, judged);
  }
  latencies.sort((a, b) => a - b);
  return { split, queries: qrels.size, ndcg: ndcg / qrels.size, recall: recall / qrels.size, latencies };
}

function qualityRows(result: SplitResult, boost: string): BenchRow[] {
  const what = `${result.split}, ${result.queries} queries, HTTP search, ${boost}`;
  const targets = result.split === 'test';
  return [
    {
      benchmark: `SciFact nDCG@10 (${what})`,
      value: result.ndcg,
      unit: 'nDCG',
      decimals: 4,
      ...(targets ? { target: `>= ${TARGET_NDCG}`, ok: result.ndcg >= TARGET_NDCG } : {}),
    },
    {
      benchmark: `SciFact Recall@100 (${what})`,
      value: result.recall,
      unit: 'recall',
      decimals: 4,
      ...(targets ? { target: `>= ${TARGET_RECALL}`, ok: result.recall >= TARGET_RECALL } : {}),
    },
  ];
}

async function main(): Promise<void> {
  const data = dataDir();
  if (data === null) return;
  const queries = new Map(
    readJsonl<{ _id: string; text: string }>(join(data, 'queries.jsonl')).map((q) => [q._id, q.text]),
  );
  const qrels = new Map(
    SPLITS.map((split) => [split, parseQrels(readFileSync(join(data, 'qrels', `${split}.tsv`), 'utf8'))]),
  );
  const dir = mkdtempSync(join(tmpdir(), 'cairn-eval-retrieval-'));
  const { app, baseUrl, config } = await startBenchServer(dir);
  const boost = `title boost ${config.searchTitleBoost}`;
  try {
    const commands = app.get(CommandBus);
    const org = await commands.execute<RegisterOrganizationCommand, RegisterOrganizationResult>(
      new RegisterOrganizationCommand('SciFact evaluation', null, null, operatorContext('eval-retrieval')),
    );
    const connector = await commands.execute<RegisterConnectorCommand, RegisterConnectorResult>(
      new RegisterConnectorCommand(
        org.organization_id,
        'eval',
        ['memory_search'],
        'strict',
        operatorContext('eval-retrieval'),
      ),
    );
    process.stderr.write('ingesting corpus.jsonl as memory:ingest does…\n');
    const ingested = await ingestCorpus(app, org.organization_id, join(data, 'corpus.jsonl'));
    const results: SplitResult[] = [];
    for (const split of SPLITS) {
      const splitQrels = qrels.get(split) ?? new Map();
      process.stderr.write(`running the ${splitQrels.size} ${split} queries over HTTP…\n`);
      results.push(
        await evaluateSplit(split, splitQrels, queries, ingested.items, (text) =>
          search(baseUrl, connector.token, text),
        ),
      );
    }
    const test = results[0];
    const raw = await rawIndexLatencies(
      app,
      org.organization_id,
      connector.client_key,
      [...(qrels.get('test') ?? new Map()).keys()].map((q) => queries.get(q) ?? ''),
      config.searchTitleBoost,
    );
    const rows: BenchRow[] = [
      ...results.flatMap((result) => qualityRows(result, boost)),
      {
        benchmark: `ingestion (${ingested.documents} documents, ${ingested.chunks} chunks)`,
        value: ingested.ms / 1000,
        unit: 's',
      },
      { benchmark: 'ingestion rate', value: (ingested.chunks * 1000) / ingested.ms, unit: 'chunks/s' },
      {
        benchmark: `test queries (${test.queries}, limit 100, sequential)`,
        value: test.latencies.reduce((a, b) => a + b, 0) / 1000,
        unit: 's',
      },
      {
        benchmark: 'HTTP query latency p50 (test)',
        value: test.latencies[Math.floor(test.latencies.length / 2)],
        unit: 'ms',
      },
      {
        benchmark: 'HTTP query latency p95 (test)',
        value: test.latencies[Math.floor(test.latencies.length * 0.95)],
        unit: 'ms',
      },
      {
        benchmark: 'raw index query p50 (test queries, 100 items as a limit-100 search asks)',
        value: raw[Math.floor(raw.length / 2)],
        unit: 'ms',
      },
    ];
    printTable(rows);
    for (const result of results) {
      process.stdout.write(
        `${result.split}: nDCG@10 ${result.ndcg.toFixed(4)}  Recall@100 ${result.recall.toFixed(4)}  (${boost})\n`,
      );
    }
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Settles when the run has ended (a test awaits it). */
export const finished = main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
