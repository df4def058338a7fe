/**
 * Synthetic documents through the real ingestion path (store-figures.ts `ingestSynthetic`: IngestDocumentCommand →
 * events → projections → search index, in the bench process, as memory:ingest runs it), with a progress bar on
 * stderr.
 */
import { SingleBar } from 'cli-progress';
import type { BenchServer } from '../bench-server';
import { ingestSynthetic as ingestWithProgress } from '../store-figures';
import type { SyntheticText } from '../synthetic-text';

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
  const bar = new SingleBar({
    stream: process.stderr,
    format:
      'ingesting |{bar}| {percentage}% | {value}/{total} chunks | {rate} chunks/s | ETA {eta_formatted}',
    noTTYOutput: process.stderr.isTTY !== true,
    notTTYSchedule: 10_000,
    etaBuffer: 2_000,
  });
  const started = performance.now();
  let first: number | null = null;
  bar.start(target, 0, { rate: 0 });
  try {
    return await ingestWithProgress(server, organizationId, text, target, (chunks) => {
      first ??= chunks;
      const seconds = (performance.now() - started) / 1000;
      bar.update(chunks, { rate: Math.round((chunks - first) / Math.max(seconds, 0.001)) });
    });
  } finally {
    bar.stop();
  }
}
