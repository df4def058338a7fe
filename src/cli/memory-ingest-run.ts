import type { CommandBus } from '@nestjs/cqrs';
import { MultiBar, type SingleBar } from 'cli-progress';
import { BoundedTasks } from '../common/bounded-tasks';
import { ConflictError, UnsafeContentError, ValidationFailedError } from '../common/errors';
import { IngestDocumentCommand, type IngestDocumentResult } from '../commands/memory/ingest-document.command';
import { listFiles, readFile, type ReadOptions, type SourceFile } from '../ingestion/readers/read-documents';
import type { ReadSkip } from '../ingestion/readers/reader-types';
import type { CommandContext } from '../commands/shared/command-context';
import type { StreamCommandExecutor } from '../commands/shared/stream-command-executor';
import type { Stores } from '../infrastructure/stores';
import type { EventStore } from '../infrastructure/event-store/event-store.port';
import type { UnsafeContentScanner } from '../safety/unsafe-content/unsafe-content-scanner';

export interface IngestedItem {
  memory_item_id: number;
  memory_source_id: number;
  status: IngestDocumentResult['status'];
  revision: number;
  chunks: number;
  path: string;
  document_key: string;
}

/** A document the unsafe-content scanner refused: where, and what was found (never the value). */
export interface RefusedDocument {
  path: string;
  document_key: string;
  flags: Array<{ field: string; kind: string; rule: string; line: number; column: number }>;
}

export interface IngestReport {
  items: IngestedItem[];
  skipped: Array<{ path: string; reason: string; message: string }>;
  /** Documents refused for unsafe content (secrets, keys, card numbers…) not allowed with `--allow-flag`. */
  refused: RefusedDocument[];
  totals: {
    files: number;
    documents: number;
    created: number;
    revised: number;
    unchanged: number;
    skipped: number;
    refused: number;
    /** Chunks of every ingested document's current revision. */
    chunks: number;
    /** Chunks appended by this run (created and revised documents). */
    chunks_written: number;
    duration_ms: number;
    chunks_per_second: number;
  };
}

/** The progress bar appears when stderr is a terminal, or once a run passes this many documents. */
const PROGRESS_AFTER_DOCUMENTS = 20;
/**
 * Documents in flight at once: while the event loop commits and projects some, the scan thread scans the next
 * (UnsafeContentScanner.offload). 4 keeps the scan thread busy through a projection step (measured, issue 32).
 */
export const INGEST_IN_FLIGHT = 4;
/** Skips reported line by line on stderr; the rest only in the JSON result. */
const SKIP_LINES = 50;

/**
 * One `memory:ingest` run: lists every PATH first (so a missing path fails before anything is written), then
 * ingests document by document without waiting for the read models, and waits once at the end. Documents that
 * cannot be ingested (unreadable, invalid, archived, a key seen twice in the run) are skipped and reported.
 */
export class MemoryIngestRun {
  private readonly report: IngestReport = {
    items: [],
    skipped: [],
    refused: [],
    totals: {
      files: 0,
      documents: 0,
      created: 0,
      revised: 0,
      unchanged: 0,
      skipped: 0,
      refused: 0,
      chunks: 0,
      chunks_written: 0,
      duration_ms: 0,
      chunks_per_second: 0,
    },
  };
  private readonly keys = new Set<string>();
  /** Each reported entry (item, skip, refusal): the position of what it reports among the entries read. */
  private readonly readOrder = new Map<object, number>();
  private progress: Progress | null = null;

  constructor(
    private readonly commands: CommandBus,
    private readonly executor: StreamCommandExecutor,
    private readonly events: EventStore,
    private readonly stores: Pick<Stores, 'relaxDurability' | 'compact'>,
    /** Its scans run in a scan thread for the run (UnsafeContentScanner.offload). */
    private readonly scanner: Pick<UnsafeContentScanner, 'offload'>,
    /** Unsafe-content flags (kinds or rules) the operator accepts (`--allow-flag`); recorded in the event. */
    private readonly allowFlags: readonly string[] = [],
  ) {}

  async run(
    organizationId: number,
    files: SourceFile[],
    options: ReadOptions,
    context: CommandContext,
  ): Promise<IngestReport> {
    const started = performance.now();
    const totals = this.report.totals;
    totals.files = files.length;
    this.progress = new Progress(files.reduce((sum, file) => sum + file.size, 0));
    const bulk = this.stores.relaxDurability();
    const load = this.executor.bulkLoad();
    const scans = this.scanner.offload();
    const tasks = new BoundedTasks(INGEST_IN_FLIGHT);
    let read = 0;
    try {
      for (const file of files) {
        for await (const entry of readFile(file, options)) {
          const at = read++;
          if (entry.kind === 'skipped') this.skip(entry, at);
          else if (this.keys.has(entry.document.document_key)) {
            this.skip(
              { path: entry.path, reason: 'duplicate_key', message: 'ingested earlier in this run' },
              at,
            );
          } else {
            this.keys.add(entry.document.document_key);
            const { path, document } = entry;
            await tasks.submit(() => this.ingest(organizationId, path, document, context, at));
          }
          this.progress.advance(entry.bytes, totals);
        }
      }
      await tasks.drain();
      // Reported in the order the entries were read, whatever order their documents finished in.
      for (const list of [this.report.items, this.report.skipped, this.report.refused] as Array<object[]>) {
        list.sort((a, b) => (this.readOrder.get(a) ?? 0) - (this.readOrder.get(b) ?? 0));
      }
    } finally {
      // Whatever stopped the run (a document's error, a file's): no document is still being written after it.
      await tasks.settled();
      scans.end();
      load.end();
      bulk.end();
      this.progress.stop();
    }
    if (totals.created + totals.revised > 0) {
      // One wait for the whole run: the read models have applied every document when the command returns.
      await this.executor.settle(await this.events.headPosition());
      // Pages the run used for a while (bodies kept until their postings were written) go back to the disk.
      this.stores.compact?.();
    }
    totals.duration_ms = Math.round(performance.now() - started);
    totals.chunks_per_second = Math.round((totals.chunks_written * 1000) / Math.max(totals.duration_ms, 1));
    process.stderr.write(
      `ingested ${totals.documents} document(s): ${totals.created} created, ${totals.revised} revised, ` +
        `${totals.unchanged} unchanged, ${totals.skipped} skipped, ${totals.refused} refused as unsafe; ` +
        `${totals.chunks_written} chunk(s) written ` +
        `in ${(totals.duration_ms / 1000).toFixed(1)} s (${totals.chunks_per_second} chunks/s)\n`,
    );
    return this.report;
  }

  private async ingest(
    organizationId: number,
    path: string,
    document: IngestDocumentCommand['document'],
    context: CommandContext,
    at: number,
  ): Promise<void> {
    let result: IngestDocumentResult;
    try {
      result = await this.commands.execute<IngestDocumentCommand, IngestDocumentResult>(
        new IngestDocumentCommand(organizationId, document, context, {
          waitForReadModels: false,
          allowFlags: this.allowFlags,
        }),
      );
    } catch (error) {
      if (error instanceof UnsafeContentError) {
        this.refuse(path, document.document_key, error, at);
        return;
      }
      if (error instanceof ValidationFailedError) {
        const problems = error.details.map((detail) => `${detail.field ?? ''} ${detail.message}`.trim());
        this.skip({ path, reason: 'invalid_document', message: problems.join('; ') || error.message }, at);
        return;
      }
      if (error instanceof ConflictError && error.code === 'memory_item_archived') {
        this.skip({ path, reason: 'memory_item_archived', message: 'its memory item is archived' }, at);
        return;
      }
      throw error;
    }
    const totals = this.report.totals;
    totals.documents++;
    totals[result.status]++;
    totals.chunks += result.chunks;
    if (result.status !== 'unchanged') totals.chunks_written += result.chunks;
    const item: IngestedItem = {
      memory_item_id: result.memory_item_id,
      memory_source_id: result.memory_source_id,
      status: result.status,
      revision: result.revision,
      chunks: result.chunks,
      path,
      document_key: document.document_key,
    };
    this.report.items.push(item);
    this.readOrder.set(item, at);
  }

  private skip(entry: Pick<ReadSkip, 'path' | 'reason' | 'message'>, at: number): void {
    const skipped = { path: entry.path, reason: entry.reason, message: entry.message };
    this.report.skipped.push(skipped);
    this.readOrder.set(skipped, at);
    const count = ++this.report.totals.skipped;
    if (count <= SKIP_LINES) this.log(`skipped ${entry.path}: ${entry.reason} (${entry.message})`);
    else if (count === SKIP_LINES + 1) this.log('more files were skipped: see "skipped" in the result');
  }

  /** Reported in `refused` and on stderr (file, field, line, column, kind and rule; never the value). */
  private refuse(path: string, document_key: string, error: UnsafeContentError, at: number): void {
    const flags = error.details.map((detail) => ({
      field: String(detail.field ?? ''),
      kind: String(detail.kind),
      rule: String(detail.rule),
      line: Number(detail.line),
      column: Number(detail.column),
    }));
    const refused = { path, document_key, flags };
    this.report.refused.push(refused);
    this.readOrder.set(refused, at);
    this.report.totals.refused++;
    const found = flags.map((f) => `${f.kind}/${f.rule} at ${f.field} line ${f.line}:${f.column}`).join(', ');
    this.log(`refused ${path}: unsafe content (${found}); allow with --allow-flag RULE if intended`);
  }

  private log(line: string): void {
    if (this.progress) this.progress.log(line);
    else process.stderr.write(`${line}\n`);
  }
}

/** Lists every PATH argument (in order) before anything is ingested; a missing path fails the whole run. */
export async function listPaths(paths: string[]): Promise<SourceFile[]> {
  const files: SourceFile[] = [];
  for (const path of paths) files.push(...(await listFiles(path)));
  return files;
}

/** A progress bar on stderr over the bytes of every listed file; never on stdout. */
class Progress {
  private readonly tty = process.stderr.isTTY === true;
  private bars: MultiBar | null = null;
  private bar: SingleBar | null = null;
  private done = 0;

  constructor(private readonly totalBytes: number) {}

  advance(bytes: number, totals: IngestReport['totals']): void {
    this.done += bytes;
    const payload = { documents: totals.documents, chunks: totals.chunks, skipped: totals.skipped };
    if (!this.bar && (this.tty || totals.documents + totals.skipped > PROGRESS_AFTER_DOCUMENTS)) {
      this.bars = new MultiBar({
        stream: process.stderr,
        format:
          'ingesting |{bar}| {percentage}% | {documents} documents, {chunks} chunks, {skipped} skipped | ETA {eta_formatted}',
        hideCursor: this.tty,
        noTTYOutput: !this.tty,
        notTTYSchedule: 2000,
        etaBuffer: 200,
      });
      this.bar = this.bars.create(Math.max(this.totalBytes, 1), 0, payload);
    }
    this.bar?.update(Math.min(this.done, this.totalBytes), payload);
  }

  log(line: string): void {
    if (this.bars) this.bars.log(`${line}\n`);
    else process.stderr.write(`${line}\n`);
  }

  stop(): void {
    this.bar?.update(this.totalBytes);
    this.bars?.stop();
    this.bars = null;
    this.bar = null;
  }
}
