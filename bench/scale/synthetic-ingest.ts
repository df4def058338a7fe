/**
 * Synthetic documents through the real ingestion path (IngestDocumentCommand → events → projections → search
 * index, in the bench process), as memory:ingest runs it (durability relaxed for the run, no wait for the read
 * models per document; the step ends when the search index holds every chunk), with a progress bar on stderr.
 */
import { CommandBus } from '@nestjs/cqrs';
import { SingleBar } from 'cli-progress';
import { IngestDocumentCommand } from '../../src/commands/memory/ingest-document.command';
import type { IngestDocumentResult } from '../../src/commands/memory/ingest-document.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import type { BenchServer } from '../bench-server';
import type { SyntheticText } from '../synthetic-text';

/** Paragraphs (one chunk each, ~1,000 characters) per document. */
export const CHUNKS_PER_DOCUMENT = 8;
const READ_MODEL_TIMEOUT_MS = 30 * 60_000;
/**
 * Documents between yields to the event loop. Commands whose appends need no disk wait resolve without leaving
 * the microtask queue: without a yield the projections (and the progress bar's timer) waited for the whole loop
 * (a first 1M run wrote every event first, then projected them). memory:ingest yields on every file read.
 */
const YIELD_EVERY = 8;

export interface SyntheticIngest {
  chunks: number;
  documents: number;
  /** UTF-8 bytes of the titles and contents ingested. */
  rawBytes: number;
  ms: number;
}

/** Ingests synthetic documents until the organization's search index holds `target` chunks. */
export async function ingestSynthetic(
  server: BenchServer,
  organizationId: number,
  text: SyntheticText,
  target: number,
): Promise<SyntheticIngest> {
  const commands = server.app.get(CommandBus);
  const executor = server.app.get(StreamCommandExecutor);
  const { stores } = server;
  const context = operatorContext('bench');
  const before = await stores.searchIndex.count(String(organizationId));
  const bar = new SingleBar({
    stream: process.stderr,
    format:
      'ingesting |{bar}| {percentage}% | {value}/{total} chunks | {rate} chunks/s | ETA {eta_formatted}',
    noTTYOutput: process.stderr.isTTY !== true,
    notTTYSchedule: 10_000,
    etaBuffer: 2_000,
  });
  bar.start(target, before, { rate: 0 });
  let total = before;
  let documents = 0;
  let rawBytes = 0;
  const started = performance.now();
  const bulk = stores.relaxDurability();
  try {
    for (let n = before; total < target; n++) {
      const paragraphs = Array.from({ length: Math.min(CHUNKS_PER_DOCUMENT, target - total) }, () =>
        text.paragraph(),
      );
      const title = `${text.sentence(4).slice(0, -1)} ${n}`;
      const content = paragraphs.join('\n\n');
      rawBytes += Buffer.byteLength(title) + Buffer.byteLength(content);
      const result = await commands.execute<IngestDocumentCommand, IngestDocumentResult>(
        new IngestDocumentCommand(
          organizationId,
          {
            document_key: `scale:${n}`,
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
          },
          context,
          { waitForReadModels: false },
        ),
      );
      total += result.chunks;
      documents += 1;
      if (documents % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const seconds = (performance.now() - started) / 1000;
      bar.update(total, { rate: Math.round((total - before) / Math.max(seconds, 0.001)) });
    }
  } finally {
    bulk.end();
    bar.stop();
  }
  const deadline = Date.now() + READ_MODEL_TIMEOUT_MS;
  while ((await stores.searchIndex.count(String(organizationId))) < total) {
    if (Date.now() > deadline) throw new Error('the search index did not catch up with the ingestion');
    await executor.settle(await stores.eventStore.headPosition());
  }
  return { chunks: total - before, documents, rawBytes, ms: performance.now() - started };
}
