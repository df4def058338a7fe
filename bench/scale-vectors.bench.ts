/**
 * Hybrid search at scale (`npm run bench -- scale-vectors`): for each dimension count (CAIRN_BENCH_VECTOR_DIMS,
 * default `384,1536`), one organization of CAIRN_BENCH_VECTOR_CHUNKS chunks (default 1,000,000) with embeddings
 * on, then:
 *
 * - Ingestion through the real path (IngestDocumentCommand → events → projections, in this process), with
 *   CAIRN_EMBEDDING_MODEL set: the memory-vectors projection embeds every chunk by calling a local
 *   OpenAI-compatible embeddings server (scale/embedding-server.ts, its own process, 64 texts a call) whose vectors are derived from
 *   the text (scale/text-embedding.ts: a seeded very sparse random projection of log term counts). The text is
 *   topical synthetic text (scale/topical-text.ts), so chunks of one topic are near each other as real
 *   embeddings are. No vector is seeded around the projection.
 * - Index build: the ANN index built from the read model as a process with no saved index does at start
 *   (ChunkVectorIndex.catchUp(): every row read, the graph built, saved and viewed back), timed.
 * - Recall@10 of the ANN against exact cosine: RECALL_QUERIES queries, the index's top 10 (this process, over
 *   the saved index the server views) against the exact top 10 computed by brute force over every vector of the
 *   read model.
 * - HTTP: Cairn as its own process (CAIRN_HTTP_WORKERS=2) over the data; `POST …/memory/search` limit 10 (the
 *   handler asks the vector index for 100 chunks and the lexical index for 100), the query embedded by the local
 *   server on each request; autocannon, after a warm-up not counted: p50 with 2 connections and with 1.
 * - Server memory after the load: the process tree's summed RSS (a page of the memory-mapped index counts once
 *   per worker) and summed PSS (each shared page divided among the processes mapping it).
 * - A write: a tool note saved over HTTP, then a search for its text: the note must come back, and the first
 *   search after the write is timed (a reload of the organization's vectors would take about the index build
 *   time; the unit test checks that a write reads only its own rows).
 */
import { CommandBus } from '@nestjs/cqrs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { RegisterConnectorCommand } from '../src/commands/connectors/register-connector.command';
import type { RegisterConnectorResult } from '../src/commands/connectors/register-connector.command';
import { IngestDocumentCommand } from '../src/commands/memory/ingest-document.command';
import { RegisterOrganizationCommand } from '../src/commands/organizations/register-organization.command';
import type { RegisterOrganizationResult } from '../src/commands/organizations/register-organization.command';
import { operatorContext } from '../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../src/commands/shared/stream-command-executor';
import { loadConfig } from '../src/config/config';
import { openStores } from '../src/infrastructure/stores';
import { exactNearest } from '../src/infrastructure/vectors/ann-graph';
import { VectorSnapshotDirectory } from '../src/infrastructure/vectors/vector-snapshot';
import { MEMORY_VECTORS_PROJECTION, decodeVector } from '../src/projections/memory-vectors.projection';
import { ProjectionRunner } from '../src/projections/projection-runner';
import { ChunkVectorIndex } from '../src/queries/memory/chunk-vector-index';
import { readVectorFeed } from '../src/queries/memory/vector-feed';
import { annParameters, vectorIndexDir } from '../src/queries/memory/vector-candidates';
import { startBenchServer } from './bench-server';
import { httpLoad, percentile } from './http-load';
import { startEmbeddingServerProcess } from './scale/embedding-server';
import { treeMemory } from './scale/process-memory';
import { TextEmbedding } from './scale/text-embedding';
import { TopicalText } from './scale/topical-text';
import { startServerProcess } from './server-process';
import type { BenchRow } from './table';

const CHUNKS = Number(process.env.CAIRN_BENCH_VECTOR_CHUNKS ?? 1_000_000);
const DIMENSIONS = (process.env.CAIRN_BENCH_VECTOR_DIMS ?? '384,1536').split(',').map(Number);
const CHUNKS_PER_DOCUMENT = 8;
const QUERY_COUNT = 200;
const RECALL_QUERIES = 100;
const WARMUP_S = 5;
const DURATION_S = 8;
const SEARCH_PATH = '/app/api/tool-connectors/v1/memory/search';
const SAVE_PATH = '/app/api/tool-connectors/v1/memory/save';
const MB = 1024 * 1024;

function embeddingEnv(dims: number, url: string): Record<string, string> {
  return { CAIRN_EMBEDDING_MODEL: `bench-embed-${dims}`, OPENAI_BASE_URL: url, OPENAI_API_KEY: 'bench' };
}

async function ingest(
  dataDir: string,
  env: Record<string, string>,
  text: TopicalText,
): Promise<{ token: string; clientKey: string; organizationId: number; chunksPerSecond: number }> {
  const server = await startBenchServer(dataDir, env);
  try {
    const commands = server.app.get(CommandBus);
    const context = operatorContext('bench');
    const org = await commands.execute<RegisterOrganizationCommand, RegisterOrganizationResult>(
      new RegisterOrganizationCommand('Scale vectors bench', null, null, context),
    );
    const connector = await commands.execute<RegisterConnectorCommand, RegisterConnectorResult>(
      new RegisterConnectorCommand(
        org.organization_id,
        'bench',
        ['memory_search', 'memory_save'],
        'strict',
        context,
      ),
    );
    const started = performance.now();
    const bulk = server.stores.relaxDurability();
    let written = 0;
    let reported = 0;
    try {
      for (let n = 0; written < CHUNKS; n++) {
        const paragraphs = Array.from({ length: Math.min(CHUNKS_PER_DOCUMENT, CHUNKS - written) }, () =>
          text.paragraph(),
        );
        await commands.execute(
          new IngestDocumentCommand(
            org.organization_id,
            {
              document_key: `scale:${n}`,
              title: `${text.title()} ${n}`,
              content: paragraphs.join('\n\n'),
              format: 'text',
              type: 'document',
              audience: 'internal',
              authority_level: 'reference',
              source_label: 'bench',
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
        written += paragraphs.length;
        if (written - reported >= CHUNKS / 20) {
          reported = written;
          process.stderr.write(
            `scale-vectors: ${written.toLocaleString('en-US')} chunks appended (${Math.round((written * 1000) / (performance.now() - started))}/s)\n`,
          );
        }
      }
    } finally {
      bulk.end();
    }
    const runner = server.app.get(ProjectionRunner);
    const executor = server.app.get(StreamCommandExecutor);
    const head = await server.stores.eventStore.headPosition();
    for (;;) {
      if (await runner.waitFor(head, 60_000)) break;
      const vectors = await server.stores.readStore.getCheckpoint(MEMORY_VECTORS_PROJECTION);
      process.stderr.write(
        `scale-vectors: projections catching up (vectors at ${vectors?.position} of ${head})\n`,
      );
      await executor.settle(head);
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      token: connector.token,
      clientKey: connector.client_key,
      organizationId: org.organization_id,
      chunksPerSecond: written / seconds,
    };
  } finally {
    await server.app.close();
  }
}

/** Recall@10 of the saved index against exact cosine over every vector of the read model. */
async function recallAt10(
  index: ChunkVectorIndex,
  readStore: Parameters<typeof readVectorFeed>[0],
  organizationId: number,
  clientKey: string,
  queries: Float32Array[],
  dims: number,
): Promise<number> {
  const flat = new Float32Array(queries.length * dims);
  queries.forEach((query, n) => flat.set(query, n * dims));
  // Exact top 10 per query, page by page of the read model (every chunk is organization_internal, unexpired).
  const best: Array<Array<{ id: number; distance: number }>> = queries.map(() => []);
  await readVectorFeed(readStore, 0, (rows) => {
    const live = rows.filter((row) => row.vector !== null);
    const page = new Float32Array(live.length * dims);
    live.forEach((row, n) => page.set(decodeVector(row.vector as string), n * dims));
    exactNearest(page, flat, dims, 10).forEach((matches, q) => {
      const merged = [
        ...best[q],
        ...matches.map((m) => ({ id: live[m.key].memory_chunk_id, distance: m.distance })),
      ];
      best[q] = merged.sort((a, b) => a.distance - b.distance).slice(0, 10);
    });
  });
  let found = 0;
  for (let q = 0; q < queries.length; q++) {
    const ann = await index.search(
      { organizationId, clientKey, visibility: 'organization_internal', nowMs: Date.now() },
      queries[q],
      10,
    );
    const exact = new Set(best[q].map((hit) => hit.id));
    found += ann.filter((hit) => exact.has(hit.chunkId)).length;
  }
  return found / (queries.length * 10);
}

function directoryBytes(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

async function postJson(
  baseUrl: string,
  path: string,
  token: string,
  body: object,
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as unknown };
}

async function benchDimensions(dir: string, dims: number, embeddingUrl: string): Promise<BenchRow[]> {
  const label = `${(CHUNKS / 1000).toLocaleString('en-US')}k chunks, ${dims} dims`;
  const dataDir = join(dir, `scale-vectors-${dims}`);
  const env = embeddingEnv(dims, embeddingUrl);
  const text = new TopicalText();
  const queries = Array.from({ length: QUERY_COUNT }, () => text.query());
  process.stderr.write(`scale-vectors: ingesting ${label}…\n`);
  const ingested = await ingest(dataDir, env, text);

  process.stderr.write(`scale-vectors: building the ANN index from the read model…\n`);
  const config = loadConfig({ ...process.env, CAIRN_DATA_DIR: dataDir, ...env });
  const stores = await openStores(config);
  let buildMs: number;
  let recall: number;
  try {
    const index = new ChunkVectorIndex(
      stores.readStore,
      new VectorSnapshotDirectory(vectorIndexDir(dataDir)),
      {
        parameters: annParameters(config),
      },
    );
    const started = performance.now();
    await index.catchUp();
    buildMs = performance.now() - started;
    process.stderr.write(`scale-vectors: built in ${Math.round(buildMs)} ms; recall against exact cosine…\n`);
    const embedding = new TextEmbedding(dims, text.meaning);
    recall = await recallAt10(
      index,
      stores.readStore,
      ingested.organizationId,
      ingested.clientKey,
      queries.slice(0, RECALL_QUERIES).map((query) => embedding.embed(query)),
      dims,
    );
  } finally {
    await stores.close();
  }
  const indexBytes = directoryBytes(vectorIndexDir(dataDir));

  process.stderr.write(`scale-vectors: HTTP load…\n`);
  const server = await startServerProcess(dataDir, { ...env, CAIRN_HTTP_WORKERS: '2' });
  try {
    const run = (durationS: number, connections: number) =>
      httpLoad({
        url: server.baseUrl,
        connections,
        durationS,
        requests: queries.map((query) => ({
          method: 'POST' as const,
          path: SEARCH_PATH,
          headers: { authorization: `Bearer ${ingested.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query, limit: 10 }),
        })),
      });
    await run(WARMUP_S, 2);
    const load = await run(DURATION_S, 2);
    const serial = await run(DURATION_S, 1);
    const memory = treeMemory(server.pid);

    // A write, then the first search after it.
    const note = `${text.query()} ${text.query()} scale vectors bench note`;
    const saved = await postJson(server.baseUrl, SAVE_PATH, ingested.token, {
      kind: 'note',
      title: 'Bench note',
      content: note,
    });
    const itemId = (saved.json as { memory_item_id?: number }).memory_item_id;
    const started = performance.now();
    const found = await postJson(server.baseUrl, SEARCH_PATH, ingested.token, { query: note, limit: 10 });
    const afterWriteMs = performance.now() - started;
    const results = (found.json as { results?: Array<{ memory_item_id: number }> }).results ?? [];
    const noteFound = results.some((result) => result.memory_item_id === itemId);
    const loadP50 = percentile(load.latencies, 0.5);
    const serialP50 = percentile(serial.latencies, 0.5);
    const at1M = CHUNKS >= 1_000_000;
    const rows: BenchRow[] = [
      {
        benchmark: `ingestion with embeddings (${label}, real path)`,
        value: ingested.chunksPerSecond,
        unit: 'chunks/s',
      },
      { benchmark: `ANN index build from the read model (${label})`, value: buildMs / 1000, unit: 's' },
      {
        benchmark: `ANN index on disk (${label}, ${config.vectorQuantization}, ef ${config.vectorEfSearch})`,
        value: indexBytes / MB,
        unit: 'MB',
      },
      {
        benchmark: `ANN recall@10 vs exact cosine (${label})`,
        value: recall,
        unit: '',
        target: '>= 0.95',
        ok: recall >= 0.95,
        decimals: 4,
      },
      {
        benchmark: `hybrid search HTTP p50, 2 connections (${label})`,
        value: loadP50,
        unit: 'ms',
        ...(at1M ? { target: '<= 15', ok: loadP50 <= 15 } : {}),
      },
      { benchmark: `hybrid search HTTP p50, 1 connection (${label})`, value: serialP50, unit: 'ms' },
      {
        benchmark: `hybrid search HTTP p99, 2 connections (${label})`,
        value: percentile(load.latencies, 0.99),
        unit: 'ms',
      },
      {
        benchmark: `hybrid search throughput, 2 connections (${label})`,
        value: load.requestsPerSecond,
        unit: 'req/s',
      },
      {
        benchmark: `server RSS, ${memory.processes} processes summed (${label})`,
        value: memory.rssBytes / MB,
        unit: 'MB',
        ...(dims === 384 && at1M ? { target: '<= 2,048', ok: memory.rssBytes <= 2048 * MB } : {}),
      },
      { benchmark: `server PSS, summed (${label})`, value: memory.pssBytes / MB, unit: 'MB' },
      {
        benchmark: `first search after a write, note found (${label})`,
        value: afterWriteMs,
        unit: 'ms',
        target: 'found, << build time',
        ok: noteFound && afterWriteMs < buildMs / 10,
      },
    ];
    const failures = load.failures + serial.failures + (saved.status === 200 ? 0 : 1);
    if (failures > 0)
      rows.push({
        benchmark: `HTTP failures (${label})`,
        value: failures,
        unit: 'requests',
        target: '0',
        ok: false,
      });
    return rows;
  } finally {
    await server.stop();
  }
}

export async function benchScaleVectors(dir: string): Promise<BenchRow[]> {
  const embedding = await startEmbeddingServerProcess();
  const rows: BenchRow[] = [];
  try {
    for (const dims of DIMENSIONS) rows.push(...(await benchDimensions(dir, dims, embedding.url)));
  } finally {
    await embedding.close();
  }
  return rows;
}
