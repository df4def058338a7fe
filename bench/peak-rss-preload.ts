/**
 * Loaded with `node --require` into a measured child process (store-figures.ts runCli): as the process exits it
 * writes its peak resident set (VmHWM from /proc/self/status, in KiB) to CAIRN_PEAK_RSS_FILE.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const reportFile = process.env.CAIRN_PEAK_RSS_FILE;
if (reportFile !== undefined) {
  process.on('exit', () => {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match !== null) writeFileSync(reportFile, match[1]);
  });
}
