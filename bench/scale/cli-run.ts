/**
 * The operator CLI as a child process (the compiled src/cli.js next to the bench), over a data directory: wall
 * time, exit status, stdout, and the peak resident memory of its process tree (VmHWM sampled from /proc).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { watchPeak } from './process-memory';

const CLI_JS = join(__dirname, '..', '..', 'src', 'cli.js');

export interface CliRun {
  ms: number;
  peakRssBytes: number;
  stdout: string;
}

export async function runCli(dataDir: string, args: readonly string[]): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI_JS, ...args], {
    env: { ...process.env, CAIRN_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`cairn ${args.join(' ')} did not start`);
  const peak = watchPeak(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  const ms = performance.now() - started;
  const memory = peak.stop();
  if (code !== 0)
    throw new Error(`cairn ${args.join(' ')} exited ${code}: ${stdout.slice(-2000)}\n${stderr}`);
  return { ms, peakRssBytes: memory.peakBytes, stdout };
}
