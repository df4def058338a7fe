/**
 * Memory of a process and its children, from /proc (Linux), with PSS (shared pages divided among the processes
 * mapping them): the vector bench reads it, as its workers share one memory-mapped index.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface TreeMemory {
  /** Sum of VmRSS: pages shared by several processes (a memory-mapped index) count once per process. */
  rssBytes: number;
  /** Sum of Pss: each shared page divided among the processes mapping it (what the tree really holds). */
  pssBytes: number;
  /** Sum of VmHWM (each process's peak RSS). */
  peakRssBytes: number;
  processes: number;
}

function field(text: string, name: string): number {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) * 1024 : 0;
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

export function treeMemory(root: number): TreeMemory {
  const pids = [root];
  for (let n = 0; n < pids.length; n++) pids.push(...childrenOf(pids[n]));
  const total: TreeMemory = { rssBytes: 0, pssBytes: 0, peakRssBytes: 0, processes: 0 };
  for (const pid of pids) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      total.rssBytes += field(status, 'VmRSS');
      total.peakRssBytes += field(status, 'VmHWM');
      total.pssBytes += field(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss');
      total.processes += 1;
    } catch {
      // exited meanwhile
    }
  }
  return total;
}
