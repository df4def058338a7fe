/**
 * Measurements of the embedded store, shared by the `store` and `scale` benchmarks:
 *
 * - footprint(): the data directory's bytes after a WAL checkpoint (TRUNCATE: what is left in the WAL counts,
 *   and nothing is), and SQLite's own account of them per table (the `dbstat` virtual table; an index is counted
 *   with its table), plus the free pages.
 * - rawTextBytes(): the UTF-8 bytes of the documents' titles and text as `memory:ingest` reads them (its reader).
 * - runCli() (measured-cli.ts): the compiled operator CLI as a child process, its time and its peak memory.
 * - readModelDigest(): one SHA-256 over every read-model document and every live search document, in key order,
 *   to tell whether a rebuild reproduced the live read models.
 * - appendRates(): durable single-event appends through the event store against plain SQLite insert + fsync on the
 *   same disk, interleaved rounds in one run.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EventMetadata } from '../src/infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { unpackDocument } from '../src/infrastructure/read-store/sqlite/packed-fields';
import { SqliteSearchIndex } from '../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite } from '../src/infrastructure/sqlite/sqlite-connection';
import { walFlusherFor } from '../src/infrastructure/sqlite/wal-flusher';
import { listFiles, readFile, type ReadOptions } from '../src/ingestion/readers/read-documents';
import { CommandBus } from '@nestjs/cqrs';
import { IngestDocumentCommand } from '../src/commands/memory/ingest-document.command';
import type { IngestDocumentResult } from '../src/commands/memory/ingest-document.command';
import { operatorContext } from '../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../src/commands/shared/stream-command-executor';
import type { BenchServer } from './bench-server';
import type { SyntheticText } from './synthetic-text';
import { UnsafeContentScanner } from '../src/safety/unsafe-content/unsafe-content-scanner';
import { BoundedTasks } from '../src/common/bounded-tasks';
import { INGEST_IN_FLIGHT } from '../src/cli/memory-ingest-run';

export { CLI_JS, runCli, type CliRun } from './measured-cli';

/** Paragraphs (chunks) per synthetic document, as in the search benchmark. */
export const CHUNKS_PER_DOCUMENT = 8;
/** How long the read models may take to catch up after an ingest (a million chunks take tens of minutes). */
const READ_MODEL_TIMEOUT_MS = 30 * 60_000;

export interface TableBytes {
  /** A table, with its indexes counted in. */
  table: string;
  bytes: number;
}

export interface Footprint {
  /** Every file of the data directory, after the checkpoint. */
  directoryBytes: number;
  /** Bytes per table (its indexes included), largest first. */
  tables: TableBytes[];
  /** Pages on the free list (space the file holds but no table uses). */
  freeBytes: number;
}

function directoryBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? directoryBytes(path) : statSync(path).size;
  }
  return total;
}

/**
 * Checkpoints the WAL of `sqlitePath` into the database (TRUNCATE: the WAL file ends empty), measures each table
 * (dbstat), closes the file, then measures the data directory `dataDir`. No other process may have it open.
 */
export function measureDataDirectory(dataDir: string, sqlitePath: string): Footprint {
  const db = openSqlite({ path: sqlitePath });
  let tables: TableBytes[];
  let freeBytes: number;
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const rows = db
      .prepare<[], { table: string | null; name: string; bytes: number }>(
        `SELECT s.tbl_name AS "table", d.name AS name, d.pgsize AS bytes
         FROM dbstat AS d LEFT JOIN sqlite_schema AS s ON s.name = d.name WHERE d.aggregate = TRUE`,
      )
      .all();
    const byTable = new Map<string, number>();
    for (const row of rows) {
      // Automatic indexes (UNIQUE, PRIMARY KEY) are in sqlite_schema with their table; sqlite_schema is not.
      const table = row.table ?? row.name;
      byTable.set(table, (byTable.get(table) ?? 0) + row.bytes);
    }
    tables = [...byTable].map(([table, bytes]) => ({ table, bytes })).sort((a, b) => b.bytes - a.bytes);
    freeBytes =
      Number(db.pragma('freelist_count', { simple: true })) *
      Number(db.pragma('page_size', { simple: true }));
  } finally {
    db.close();
  }
  return { directoryBytes: directoryBytes(dataDir), tables, freeBytes };
}

/** Documents and the UTF-8 bytes of their titles and text, as `memory:ingest` reads `paths`. */
export async function rawTextBytes(paths: readonly string[]): Promise<{ documents: number; bytes: number }> {
  const options: ReadOptions = { audience: 'internal', authority_level: 'reference', expires_at: null };
  let documents = 0;
  let bytes = 0;
  for (const path of paths) {
    for (const file of await listFiles(path)) {
      for await (const entry of readFile(file, options)) {
        if (entry.kind !== 'document') continue;
        documents += 1;
        bytes += Buffer.byteLength(entry.document.title ?? '') + Buffer.byteLength(entry.document.content);
      }
    }
  }
  return { documents, bytes };
}

/**
 * SHA-256 over every read-model document (collection, id, document with its packed fields) and every live search document as the search
 * index returns it (SearchIndex.dump(): id, organization, title, body, fields, version), in key order. Equal
 * digests: equal read models.
 */
export async function readModelDigest(sqlitePath: string): Promise<{ digest: string; documents: number }> {
  const db = openSqlite({ path: sqlitePath });
  try {
    const hash = createHash('sha256');
    let documents = 0;
    const readModels = db
      .prepare<[], [string, string, string, Buffer | null]>(
        'SELECT collection, id, json(doc), packed FROM read_documents ORDER BY collection, id',
      )
      .raw(true);
    for (const [collection, id, doc, packed] of readModels.iterate()) {
      // The document as the store reads it back: packed fields (deflated apart from the row) in their places.
      hash.update(JSON.stringify([collection, id, unpackDocument<unknown>(doc, packed)]));
      documents += 1;
    }
    hash.update('\u0000search\u0000');
    const index = new SqliteSearchIndex(db);
    for await (const document of index.dump()) {
      hash.update(JSON.stringify(document));
      documents += 1;
    }
    await index.close();
    return { digest: hash.digest('hex'), documents };
  } finally {
    db.close();
  }
}

const appendMetadata = (): EventMetadata => ({
  organization_id: '1',
  correlation_id: randomUUID(),
  causation_id: null,
  actor: 'operator:bench',
  occurred_at: new Date().toISOString(),
  schema_version: 1,
});

/**
 * Stand-ins for the chain fields of an event row, so a plain row is as large as an event's: the stream chain's two
 * hashes in the metadata (hex), the log link's two in 32-byte columns.
 */
const PLAIN_CHAIN_FIELDS = { prev_hash: 'f'.repeat(64), hash: 'f'.repeat(64) };
const PLAIN_LINK = Buffer.alloc(32, 0xff);

export interface AppendRates {
  /** Event store appends per second: one event per transaction, acknowledged after its WAL sync. */
  durableAppends: number;
  /** Plain SQLite: one INSERT of the same JSON per transaction, synchronous=FULL (an fsync per commit). */
  plainInserts: number;
  ratio: number;
}

/**
 * Durable single-event appends (as the API appends: committed, then acknowledged after a WAL sync) against plain
 * better-sqlite3 INSERTs with synchronous=FULL in WAL mode, each in its own transaction, on files in `dir` (the
 * same disk). `rounds` interleaved rounds of `perRound` writes each, so both see the same load; rates are totals
 * over all rounds.
 */
export async function appendRates(dir: string, perRound: number, rounds: number): Promise<AppendRates> {
  const storePath = join(dir, 'durable-appends.sqlite');
  const storeDb = openSqlite({ path: storePath, synchronous: 'NORMAL' });
  const wal = walFlusherFor(storePath);
  const store = new SqliteEventStore(storeDb, { flusher: wal.flusher });
  const plainDb = openSqlite({ path: join(dir, 'plain-inserts.sqlite'), synchronous: 'FULL' });
  plainDb.exec(
    `CREATE TABLE IF NOT EXISTS rows (
       id INTEGER PRIMARY KEY, stream TEXT, data TEXT, metadata TEXT, link_prev BLOB, link_hash BLOB)`,
  );
  const insert = plainDb.prepare(
    'INSERT INTO rows (stream, data, metadata, link_prev, link_hash) VALUES (?, ?, ?, ?, ?)',
  );
  let storeMs = 0;
  let plainMs = 0;
  let n = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      let started = performance.now();
      for (let i = 0; i < perRound; i++) {
        await store.append(
          `bench-${(n + i) % 500}`,
          [{ type: 'Tick', data: { i: n + i }, metadata: appendMetadata() }],
          'any',
        );
      }
      storeMs += performance.now() - started;
      started = performance.now();
      for (let i = 0; i < perRound; i++) {
        // The row the event store writes: the same data, metadata with its chain hashes, the log link.
        const metadata = { ...appendMetadata(), ...PLAIN_CHAIN_FIELDS };
        insert.run(
          `bench-${(n + i) % 500}`,
          JSON.stringify({ i: n + i }),
          JSON.stringify(metadata),
          PLAIN_LINK,
          PLAIN_LINK,
        );
      }
      plainMs += performance.now() - started;
      n += perRound;
    }
  } finally {
    await store.close();
    wal.close();
    storeDb.close();
    plainDb.close();
  }
  const durableAppends = (n * 1000) / storeMs;
  const plainInserts = (n * 1000) / plainMs;
  return { durableAppends, plainInserts, ratio: durableAppends / plainInserts };
}

/** A plain-text bench document as IngestDocumentCommand takes it (internal, reference, no dates). */
export function benchDocument(
  document_key: string,
  title: string,
  content: string,
): IngestDocumentCommand['document'] {
  return {
    document_key,
    title,
    content,
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
  };
}

/**
 * Runs `produce` as memory:ingest runs its documents (MemoryIngestRun): bulk durability and load, INGEST_IN_FLIGHT
 * documents at once, scanned in the scan thread while the event loop commits and projects the earlier ones.
 * `submit` waits while the pipeline is full; returns once every submitted document settled (the first failure
 * rethrown).
 */
export async function bulkIngestion(
  server: BenchServer,
  produce: (submit: (task: () => Promise<void>) => Promise<void>) => Promise<void>,
): Promise<void> {
  const bulk = server.stores.relaxDurability();
  const load = server.app.get(StreamCommandExecutor).bulkLoad();
  const scans = server.app.get(UnsafeContentScanner).offload();
  const tasks = new BoundedTasks(INGEST_IN_FLIGHT);
  try {
    await produce((task) => tasks.submit(task));
    await tasks.drain();
  } finally {
    await tasks.settled();
    scans.end();
    load.end();
    bulk.end();
  }
}

/**
 * Ingests synthetic documents (CHUNKS_PER_DOCUMENT paragraphs of ~150 words, one chunk each) into one organization
 * through the real ingestion path (IngestDocumentCommand → events → projections → search index) until it holds
 * `target` chunks, with the bulk durability `memory:ingest` uses; waits for the read models. Returns the chunks
 * written, the UTF-8 bytes of the titles and text ingested, and the time.
 */
export async function ingestSynthetic(
  server: BenchServer,
  organizationId: number,
  text: SyntheticText,
  target: number,
  onProgress: (chunks: number) => void = () => undefined,
): Promise<{ chunks: number; documents: number; rawBytes: number; ms: number }> {
  const commands = server.app.get(CommandBus);
  const executor = server.app.get(StreamCommandExecutor);
  const { stores } = server;
  const context = operatorContext('bench');
  const before = await stores.searchIndex.count(String(organizationId));
  let total = before;
  let documents = 0;
  let rawBytes = 0;
  let queued = 0;
  const started = performance.now();
  await bulkIngestion(server, async (submit) => {
    for (let n = before; total + queued < target; n++) {
      const paragraphs = Array.from({ length: Math.min(CHUNKS_PER_DOCUMENT, target - total - queued) }, () =>
        text.paragraph(),
      );
      const title = `${text.sentence(4).slice(0, -1)} ${n}`;
      const content = paragraphs.join('\n\n');
      rawBytes += Buffer.byteLength(title) + Buffer.byteLength(content);
      queued += paragraphs.length;
      await submit(async () => {
        const result = await commands.execute<IngestDocumentCommand, IngestDocumentResult>(
          new IngestDocumentCommand(organizationId, benchDocument(`bench:${n}`, title, content), context, {
            waitForReadModels: false,
          }),
        );
        queued -= paragraphs.length;
        total += result.chunks;
        documents++;
        onProgress(total);
      });
    }
  });
  const deadline = Date.now() + READ_MODEL_TIMEOUT_MS;
  while ((await stores.searchIndex.count(String(organizationId))) < total) {
    if (Date.now() > deadline) throw new Error('the search index did not catch up with the ingestion');
    await executor.settle(await stores.eventStore.headPosition());
  }
  return { chunks: total - before, documents, rawBytes, ms: performance.now() - started };
}
