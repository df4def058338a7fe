/**
 * runCli(): the compiled operator CLI as a child process (as an operator runs it), its time and its peak resident
 * memory (VmHWM, read from /proc by the child itself as it exits, and polled from outside meanwhile; the larger is
 * kept), with what that memory was (peak-rss-preload.ts).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { statusKib } from './proc-status';

/** The compiled CLI beside this file's compiled directory (dist-bench/src/cli.js). */
export const CLI_JS = join(__dirname, '..', 'src', 'cli.js');
const PEAK_RSS_PRELOAD = join(__dirname, 'peak-rss-preload.js');

export interface CliRun {
  /** The JSON object the command printed. */
  result: Record<string, unknown>;
  ms: number;
  /** The child's peak resident set (VmHWM), bytes. */
  peakRssBytes: number;
  /** What the child's memory was (peak-rss-preload.ts), bytes; null without its report (no /proc). */
  memory: {
    peakHeapUsedBytes: number;
    peakExternalBytes: number;
    peakAnonymousBytes: number;
    peakFileBackedBytes: number;
  } | null;
}

/**
 * Runs `cairn ARGS…` (the compiled CLI) over `dataDir`, with `nodeArgs` before it (e.g. bench/cpu-profile.ts
 * profileArgs); rejects when it exits non-zero.
 */
export async function runCli(
  dataDir: string,
  args: readonly string[],
  nodeArgs: readonly string[] = [],
): Promise<CliRun> {
  const reportFile = join(dataDir, '..', `peak-rss-${randomUUID()}.txt`);
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, '--require', PEAK_RSS_PRELOAD, CLI_JS, ...args], {
    env: { ...process.env, CAIRN_DATA_DIR: dataDir, CAIRN_PEAK_RSS_FILE: reportFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  let polledKib = 0;
  const poll = setInterval(() => {
    try {
      polledKib = Math.max(polledKib, statusKib(readFileSync(`/proc/${child.pid}/status`, 'utf8'), 'VmHWM'));
    } catch {
      // the process is gone; its own report has the final figure
    }
  }, 20);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(poll);
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`cairn ${args.join(' ')} exited ${code}: ${stdout}${stderr}`);
  const report = readMemoryReport(reportFile);
  return {
    result: JSON.parse(stdout) as Record<string, unknown>,
    ms,
    peakRssBytes: Math.max(polledKib, report?.vmHwmKib ?? 0) * 1024,
    memory:
      report === null
        ? null
        : {
            peakHeapUsedBytes: report.heapUsedKib * 1024,
            peakExternalBytes: report.externalKib * 1024,
            peakAnonymousBytes: report.rssAnonKib * 1024,
            peakFileBackedBytes: report.rssFileKib * 1024,
          },
  };
}

interface MemoryReport {
  vmHwmKib: number;
  rssAnonKib: number;
  rssFileKib: number;
  heapUsedKib: number;
  externalKib: number;
}

/** peak-rss-preload.ts's report, or null when there is none (no /proc): the polled figure then stands. */
function readMemoryReport(file: string): MemoryReport | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as MemoryReport;
  } catch {
    return null;
  }
}
