/**
 * Memory of a process and its descendants from /proc (Linux): VmRSS (resident now) and VmHWM (the peak resident
 * size each process reached), summed over the tree, as a server with CAIRN_HTTP_WORKERS > 1 is a primary and
 * its workers. RSS counts file pages mapped and touched as well (code, libraries; the data file in a server
 * process alone on it, which reads it through mmap).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { statusKib } from '../proc-status';

export interface TreeMemory {
  /** Sum of VmRSS over the processes, bytes. */
  rssBytes: number;
  /** Sum of VmHWM (each process's own peak; the peaks need not have coincided), bytes. */
  peakBytes: number;
  /** Of rssBytes: anonymous memory (heaps, caches) and file pages mapped (code, libraries, mapped files). */
  anonBytes: number;
  fileBytes: number;
  processes: number;
}

/** The process's /proc status text ('' once it is gone). */
function statusOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return ''; // gone
  }
}

/** `pid` and every descendant (by parent pid, from /proc/N/stat). */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (field 2) can hold spaces and parentheses: fields after its last ')'.
      const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(after[1]));
    } catch {
      // exited meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

export function treeMemory(pid: number): TreeMemory {
  const pids = processTree(pid);
  let rss = 0;
  let peak = 0;
  let anon = 0;
  let file = 0;
  for (const each of pids) {
    const status = statusOf(each);
    rss += statusKib(status, 'VmRSS');
    peak += statusKib(status, 'VmHWM');
    anon += statusKib(status, 'RssAnon');
    file += statusKib(status, 'RssFile');
  }
  const kib = 1024;
  return {
    rssBytes: rss * kib,
    peakBytes: peak * kib,
    anonBytes: anon * kib,
    fileBytes: file * kib,
    processes: pids.length,
  };
}

/**
 * Samples a process tree's memory every `intervalMs` until stop(): the highest summed VmHWM seen (VmHWM only
 * grows, so the last sample before the process exits is its peak up to that moment).
 */
export function watchPeak(pid: number, intervalMs = 100): { stop(): TreeMemory } {
  let highest: TreeMemory = { rssBytes: 0, peakBytes: 0, anonBytes: 0, fileBytes: 0, processes: 0 };
  const sample = (): void => {
    const now = treeMemory(pid);
    if (now.peakBytes >= highest.peakBytes) highest = now;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return highest;
    },
  };
}
