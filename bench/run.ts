import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchClientPages } from './client-pages.bench';
import { benchEventCore } from './event-core.bench';
import { benchIdleConnections } from './idle-connections.bench';
import { benchReplies } from './replies.bench';
import { benchScale } from './scale.bench';
import { benchScaleVectors } from './scale-vectors.bench';
import { benchScanner } from './scanner.bench';
import { benchSearch } from './search.bench';
import { benchSearchDepth } from './scale/search-depth.bench';
import { benchStore } from './store.bench';
import { printTable, type BenchRow } from './table';

/** `onRequest`: run only when named (a million-chunk build takes tens of minutes). */
const BENCHMARKS: Array<{
  name: string;
  label: string;
  run: (dir: string) => Promise<BenchRow[]>;
  onRequest?: boolean;
}> = [
  { name: 'event-core', label: 'event store and projections', run: benchEventCore },
  { name: 'search', label: 'memory search and ingestion', run: benchSearch },
  { name: 'search-depth', label: 'limit 100 against limit 10 searches (SciFact)', run: benchSearchDepth },
  { name: 'replies', label: 'assistant replies', run: benchReplies },
  { name: 'client-pages', label: 'public client pages', run: benchClientPages },
  { name: 'store', label: 'store footprint, rebuild and durable appends', run: benchStore },
  {
    name: 'idle-connections',
    label: '1,000 connections that never finish their headers',
    run: benchIdleConnections,
  },
  { name: 'scanner', label: 'secret scanner on adversarial input', run: benchScanner },
  { name: 'scale', label: 'a million chunks', run: benchScale, onRequest: true },
  {
    name: 'scale-vectors',
    label: 'hybrid search at scale (ANN vector index)',
    run: benchScaleVectors,
    onRequest: true,
  },
];

/**
 * `npm run bench [-- NAME...]`: the named benchmarks (default: every one but `scale` and `scale-vectors`) on
 * temporary data, then one table.
 * Names: event-core, search, search-depth, replies, client-pages, store, idle-connections, scanner, scale,
 * scale-vectors.
 */
async function main(): Promise<void> {
  const names = process.argv.slice(2);
  const unknown = names.filter((name) => !BENCHMARKS.some((b) => b.name === name));
  if (unknown.length > 0) {
    const known = BENCHMARKS.map((b) => b.name).join(', ');
    process.stderr.write(`unknown benchmark: ${unknown.join(', ')} (known: ${known})\n`);
    process.exit(2);
  }
  const selected =
    names.length === 0
      ? BENCHMARKS.filter((b) => !b.onRequest)
      : BENCHMARKS.filter((b) => names.includes(b.name));
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  const rows: BenchRow[] = [];
  try {
    for (const bench of selected) {
      process.stderr.write(`${bench.label}…\n`);
      rows.push(...(await bench.run(dir)));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(rows);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
