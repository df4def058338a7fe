/**
 * Loaded with `node --require` into a measured child process (store-figures.ts runCli): as the process exits it
 * writes, as JSON to CAIRN_PEAK_RSS_FILE, its peak resident set (VmHWM from /proc/self/status, in KiB) and what
 * that memory was, each sampled every SAMPLE_MS and kept at its largest: the V8 heap in use, the native buffers
 * (`external`: Buffers and typed arrays), the anonymous resident set (RssAnon: the heaps, SQLite's page cache,
 * the allocator's free lists) and the file-backed one (RssFile: code, libraries and any file read through a memory
 * map, which the kernel can drop; they count in VmHWM all the same. The CLI does not map the SQLite file).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { statusKib } from './proc-status';

const SAMPLE_MS = 50;
const reportFile = process.env.CAIRN_PEAK_RSS_FILE;

const readStatus = (): string => readFileSync('/proc/self/status', 'utf8');

if (reportFile !== undefined) {
  const peak = { heapUsedKib: 0, externalKib: 0, rssAnonKib: 0, rssFileKib: 0 };
  const sample = (): void => {
    const usage = process.memoryUsage();
    peak.heapUsedKib = Math.max(peak.heapUsedKib, Math.round(usage.heapUsed / 1024));
    peak.externalKib = Math.max(peak.externalKib, Math.round(usage.external / 1024));
    const status = readStatus();
    peak.rssAnonKib = Math.max(peak.rssAnonKib, statusKib(status, 'RssAnon'));
    peak.rssFileKib = Math.max(peak.rssFileKib, statusKib(status, 'RssFile'));
  };
  setInterval(sample, SAMPLE_MS).unref();
  process.on('exit', () => {
    sample();
    writeFileSync(reportFile, JSON.stringify({ vmHwmKib: statusKib(readStatus(), 'VmHWM'), ...peak }));
  });
}
