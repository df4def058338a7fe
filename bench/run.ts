import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchEventCore } from './event-core.bench';
import { benchSearch } from './search.bench';
import { printTable, type BenchRow } from './table';

/** `npm run bench`: every benchmark on temporary data, then one table. */
async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  const rows: BenchRow[] = [];
  try {
    process.stderr.write('event store and projections…\n');
    rows.push(...(await benchEventCore(dir)));
    process.stderr.write('memory search and ingestion…\n');
    rows.push(...(await benchSearch(dir)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(rows);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
