/**
 * BEIR SciFact for the scale and depth benches: read from `../shared/data/beir-scifact` beside the project (or
 * CAIRN_SCIFACT_DIR), never copied into it; ingested exactly as `cairn memory:ingest ORG corpus.jsonl` does.
 */
import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { listPaths, MemoryIngestRun } from '../../src/cli/memory-ingest-run';
import { operatorContext } from '../../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import { STORES, type Stores } from '../../src/infrastructure/stores';
import { parseQrels, readJsonl, type Qrels } from '../retrieval-metrics';
import { UnsafeContentScanner } from '../../src/safety/unsafe-content/unsafe-content-scanner';

function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + __dirname);
    dir = parent;
  }
  return dir;
}

export function scifactDir(): string {
  const dir = process.env.CAIRN_SCIFACT_DIR ?? resolve(projectRoot(), '../shared/data/beir-scifact');
  if (!existsSync(join(dir, 'corpus.jsonl'))) throw new Error(`BEIR SciFact not found in ${dir}`);
  return dir;
}

export interface SciFactQueries {
  /** The test split's queries that have judgements, in qrels order. */
  texts: string[];
  ids: string[];
  qrels: Qrels;
}

export function scifactTestQueries(): SciFactQueries {
  const dir = scifactDir();
  const all = new Map(
    readJsonl<{ _id: string; text: string }>(join(dir, 'queries.jsonl')).map((q) => [q._id, q.text]),
  );
  const qrels = parseQrels(readFileSync(join(dir, 'qrels', 'test.tsv'), 'utf8'));
  const ids = [...qrels.keys()].filter((id) => all.has(id));
  return { ids, texts: ids.map((id) => all.get(id) ?? ''), qrels };
}

export interface SciFactIngest {
  /** memory_item_id → corpus _id. */
  items: Map<number, string>;
  chunks: number;
  /** UTF-8 bytes of the records' title and text (the raw text stored). */
  rawBytes: number;
  ms: number;
}

/** Ingests corpus.jsonl into the organization as memory:ingest does (waits for the read models at the end). */
export async function ingestSciFact(
  app: NestFastifyApplication,
  organizationId: number,
): Promise<SciFactIngest> {
  const file = join(scifactDir(), 'corpus.jsonl');
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
    await listPaths([file]),
    { audience: 'internal', authority_level: 'reference', expires_at: null },
    operatorContext('bench'),
  );
  if (report.skipped.length > 0) throw new Error(`${report.skipped.length} SciFact record(s) skipped`);
  let rawBytes = 0;
  for (const record of readJsonl<{ title: string; text: string }>(file)) {
    rawBytes += Buffer.byteLength(record.title) + Buffer.byteLength(record.text);
  }
  return {
    items: new Map(
      report.items.map((item) => [
        item.memory_item_id,
        item.document_key.slice(item.document_key.lastIndexOf('#') + 1),
      ]),
    ),
    chunks: report.totals.chunks,
    rawBytes,
    ms: report.totals.duration_ms,
  };
}
