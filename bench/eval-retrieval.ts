import { startBenchServer } from './bench-server';
/**
 * `npm run eval:retrieval`: retrieval quality of memory search on BEIR SciFact, end to end.
 *
 * A real Cairn server (in-process, HTTP on 127.0.0.1, embedded stores in a temporary directory) gets one
 * organization and a connector holding `memory_search`; the 5,183 corpus documents go through the real ingestion
 * path (IngestDocumentCommand → events → memory projection → search index; one document per record,
 * document_key `scifact:<_id>`, title = title, content = text, format text; like `memory:ingest`, documents do not
 * wait for the read models one by one, the run waits once at the end). Then the 300 test queries are sent to
 * `POST /app/api/tool-connectors/v1/memory/search` with limit 100, and nDCG@10 and Recall@100 are computed from
 * qrels/test.tsv (trec_eval definitions: gain = graded relevance, log2 discount, ideal DCG from the query's
 * qrels; recall over the documents judged relevant). Every figure is over HTTP.
 *
 * The data set is read from `../shared/data/beir-scifact` relative to the project root (or CAIRN_SCIFACT_DIR);
 * it is never copied into the project.
 */
import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { RegisterConnectorCommand } from '../src/commands/connectors/register-connector.command';
import type { RegisterConnectorResult } from '../src/commands/connectors/register-connector.command';
import { IngestDocumentCommand } from '../src/commands/memory/ingest-document.command';
import type { IngestDocumentResult } from '../src/commands/memory/ingest-document.command';
import { RegisterOrganizationCommand } from '../src/commands/organizations/register-organization.command';
import type { RegisterOrganizationResult } from '../src/commands/organizations/register-organization.command';
import { operatorContext } from '../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../src/commands/shared/stream-command-executor';
import { STORES, type Stores } from '../src/infrastructure/stores';
import { printTable, type BenchRow } from './table';

const TARGET_NDCG = 0.679;
const TARGET_RECALL = 0.925;
const SEARCH_PATH = '/app/api/tool-connectors/v1/memory/search';
const READ_MODEL_TIMEOUT_MS = 10 * 60_000;

interface CorpusRecord {
  _id: string;
  title: string;
  text: string;
}

type Qrels = Map<string, Map<string, number>>;

/** The project root: the nearest directory above this file holding package.json (works from src and dist). */
function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + __dirname);
    dir = parent;
  }
  return dir;
}

function dataDir(): string {
  const dir = process.env.CAIRN_SCIFACT_DIR ?? resolve(projectRoot(), '../shared/data/beir-scifact');
  if (!existsSync(join(dir, 'corpus.jsonl'))) throw new Error(`BEIR SciFact not found in ${dir}`);
  return dir;
}

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

function readQrels(file: string): Qrels {
  const qrels: Qrels = new Map();
  const lines = readFileSync(file, 'utf8').trim().split('\n').slice(1);
  for (const line of lines) {
    const [query, doc, score] = line.split('\t');
    if (!qrels.has(query)) qrels.set(query, new Map());
    qrels.get(query)?.set(doc, Number(score));
  }
  return qrels;
}

/** nDCG@k (trec_eval: gain = relevance grade, discount log2(rank + 1), ideal from the query's judgements). */
export function ndcgAt(k: number, ranked: readonly string[], judged: ReadonlyMap<string, number>): number {
  const dcg = ranked.slice(0, k).reduce((sum, doc, i) => sum + (judged.get(doc) ?? 0) / Math.log2(i + 2), 0);
  const ideal = [...judged.values()]
    .filter((grade) => grade > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, grade, i) => sum + grade / Math.log2(i + 2), 0);
  return ideal > 0 ? dcg / ideal : 0;
}

/** Recall@k: the share of the query's relevant documents among the first k results. */
export function recallAt(k: number, ranked: readonly string[], judged: ReadonlyMap<string, number>): number {
  const relevant = [...judged].filter(([, grade]) => grade > 0).map(([doc]) => doc);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((doc) => top.has(doc)).length / relevant.length;
}

/** Ingests every record as one document; returns memory_item_id → corpus _id, the chunk count and the time. */
async function ingestCorpus(
  app: NestFastifyApplication,
  organizationId: number,
  corpus: readonly CorpusRecord[],
): Promise<{ items: Map<number, string>; chunks: number; ms: number }> {
  const commands = app.get(CommandBus);
  const stores = app.get<Stores>(STORES);
  const executor = app.get(StreamCommandExecutor);
  const context = operatorContext('eval-retrieval');
  const items = new Map<number, string>();
  let chunks = 0;
  const started = performance.now();
  const bulk = stores.relaxDurability();
  try {
    for (const [n, record] of corpus.entries()) {
      const result = await commands.execute<IngestDocumentCommand, IngestDocumentResult>(
        new IngestDocumentCommand(
          organizationId,
          {
            document_key: `scifact:${record._id}`,
            title: record.title,
            content: record.text,
            format: 'text',
            type: 'document',
            audience: 'internal',
            authority_level: 'reference',
            source_label: 'BEIR SciFact',
            source_uri: null,
            source_date: null,
            effective_at: null,
            expires_at: null,
            summary: null,
          },
          context,
          { waitForReadModels: false },
        ),
      );
      items.set(result.memory_item_id, record._id);
      chunks += result.chunks;
      if ((n + 1) % 1000 === 0) process.stderr.write(`  ${n + 1} / ${corpus.length} documents\n`);
    }
  } finally {
    bulk.end();
  }
  // The read models (and the search index) have applied every document once the index holds every chunk.
  const deadline = Date.now() + READ_MODEL_TIMEOUT_MS;
  while ((await stores.searchIndex.count(String(organizationId))) < chunks) {
    if (Date.now() > deadline) throw new Error('the search index did not catch up with the ingestion');
    await executor.settle(await stores.eventStore.headPosition());
  }
  return { items, chunks, ms: performance.now() - started };
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
      limit: 1000,
      title_boost: titleBoost,
    });
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const data = dataDir();
  const corpus = readJsonl<CorpusRecord>(join(data, 'corpus.jsonl'));
  const queries = new Map(
    readJsonl<{ _id: string; text: string }>(join(data, 'queries.jsonl')).map((q) => [q._id, q.text]),
  );
  const qrels = readQrels(join(data, 'qrels', 'test.tsv'));
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
    process.stderr.write(`ingesting ${corpus.length} documents…\n`);
    const ingested = await ingestCorpus(app, org.organization_id, corpus);
    process.stderr.write(`running ${qrels.size} queries over HTTP…\n`);
    let ndcg = 0;
    let recall = 0;
    const latencies: number[] = [];
    for (const [queryId, judged] of qrels) {
      const text = queries.get(queryId);
      if (text === undefined) throw new Error(`query ${queryId} is not in queries.jsonl`);
      const started = performance.now();
      const itemIds = await search(baseUrl, connector.token, text);
      latencies.push(performance.now() - started);
      const ranked = itemIds.map((id) => ingested.items.get(id) ?? `unknown:${id}`);
      ndcg += ndcgAt(10, ranked, judged);
      recall += recallAt(100, ranked, judged);
    }
    ndcg /= qrels.size;
    recall /= qrels.size;
    latencies.sort((a, b) => a - b);
    const raw = await rawIndexLatencies(
      app,
      org.organization_id,
      connector.client_key,
      [...qrels.keys()].map((q) => queries.get(q) ?? ''),
      config.searchTitleBoost,
    );
    const rows: BenchRow[] = [
      {
        benchmark: `SciFact nDCG@10 (HTTP search, ${boost})`,
        value: ndcg,
        unit: 'nDCG',
        target: `>= ${TARGET_NDCG}`,
        ok: ndcg >= TARGET_NDCG,
      },
      {
        benchmark: `SciFact Recall@100 (HTTP search, ${boost})`,
        value: recall,
        unit: 'recall',
        target: `>= ${TARGET_RECALL}`,
        ok: recall >= TARGET_RECALL,
      },
      {
        benchmark: `ingestion (${corpus.length} documents, ${ingested.chunks} chunks)`,
        value: ingested.ms / 1000,
        unit: 's',
      },
      { benchmark: 'ingestion rate', value: (ingested.chunks * 1000) / ingested.ms, unit: 'chunks/s' },
      {
        benchmark: `queries (${qrels.size}, limit 100, sequential)`,
        value: latencies.reduce((a, b) => a + b, 0) / 1000,
        unit: 's',
      },
      { benchmark: 'HTTP query latency p50', value: latencies[Math.floor(latencies.length / 2)], unit: 'ms' },
      {
        benchmark: 'HTTP query latency p95',
        value: latencies[Math.floor(latencies.length * 0.95)],
        unit: 'ms',
      },
      {
        benchmark: 'raw index query p50 (same queries, 1,000 chunk hits)',
        value: raw[Math.floor(raw.length / 2)],
        unit: 'ms',
      },
    ];
    printTable(rows);
    process.stdout.write(`nDCG@10 ${ndcg.toFixed(4)}  Recall@100 ${recall.toFixed(4)}  (${boost})\n`);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
