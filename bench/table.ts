/** A benchmark result row: what was measured, the figure, its unit, and the target it is held to. */
export interface BenchRow {
  benchmark: string;
  value: number;
  unit: string;
  target?: string;
  /** Whether the figure meets the target (omit when there is none). */
  ok?: boolean;
  /** Decimals shown (default: by magnitude); measures compared with a target to the third decimal need 4. */
  decimals?: number;
}

/** Prints rows as an aligned text table. */
export function printTable(rows: BenchRow[]): void {
  const header = ['benchmark', 'result', 'unit', 'target', 'meets'];
  const body = rows.map((row) => [
    row.benchmark,
    row.decimals === undefined ? formatNumber(row.value) : row.value.toFixed(row.decimals),
    row.unit,
    row.target ?? '',
    row.ok === undefined ? '' : row.ok ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 1 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  process.stdout.write(`${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of body) process.stdout.write(`${line(row)}\n`);
}

function formatNumber(value: number): string {
  if (value >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(value >= 10 ? 1 : 2);
}
