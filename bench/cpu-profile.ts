/**
 * CPU profiles of a bench's server process, for the scale benches' searches (where a 1M-chunk search spends its
 * time). With CAIRN_BENCH_PROFILE_DIR set, the server runs under `node --cpu-prof` (every HTTP worker writes its
 * own profile when it exits) and, once it has stopped, the bench prints the functions with the most self time
 * over all of its profiles. Without it nothing changes (profiling costs the searches some CPU).
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The profile directory for one server run of a bench (`label`), or null when profiling is off. */
export function profileDir(label: string): string | null {
  const root = process.env.CAIRN_BENCH_PROFILE_DIR;
  if (root === undefined || root === '') return null;
  const dir = join(root, label.replace(/[^a-z0-9.-]+/gi, '-'));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Node's options for a server profiled into `dir` (none without one). */
export function profileArgs(dir: string | null): string[] {
  return dir === null ? [] : ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

/** Where a frame's code lives, short: `node_modules/<package>/…`, `dist/…` (Cairn) or Node's own. */
function where(url: string, line: number): string {
  if (url === '') return '(native)';
  const short = url.replace(/^.*\/(node_modules|dist-bench|dist)\//, '$1/').replace(/^file:\/\//, '');
  return `${short}:${line + 1}`;
}

/**
 * Self time by function over every profile in `dir`, the `top` largest, as lines of text: share of the busy
 * time (idle excluded), milliseconds, function and place.
 */
export function summarizeProfiles(dir: string, top = 25): string {
  const selfMs = new Map<string, number>();
  let busy = 0;
  let files = 0;
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.cpuprofile'))) {
    files += 1;
    const profile = JSON.parse(readFileSync(join(dir, name), 'utf8')) as CpuProfile;
    const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
    profile.samples.forEach((id, n) => {
      const frame = frames.get(id);
      if (frame === undefined || frame.functionName === '(idle)') return;
      const ms = (profile.timeDeltas[n] ?? 0) / 1000;
      const key = `${frame.functionName || '(anonymous)'}  ${where(frame.url, frame.lineNumber)}`;
      selfMs.set(key, (selfMs.get(key) ?? 0) + ms);
      busy += ms;
    });
  }
  const lines = [...selfMs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(
      ([key, ms]) =>
        `${((ms / busy) * 100).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(7)} ms  ${key}`,
    );
  return [
    `${files} profile(s) in ${dir}: ${busy.toFixed(0)} ms busy (self time, idle excluded)`,
    ...lines,
  ].join('\n');
}
