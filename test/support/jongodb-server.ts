/**
 * The MongoDB lane of every test run: jongodb, a MongoDB wire-protocol server (in memory, single-node replica
 * set) whose linux-x64 binary ships inside the optional dependency @jongodb/memory-server-bin-linux-x64-gnu. It is a
 * smoke test of the adapter against a server speaking MongoDB's protocol, not MongoDB itself.
 *
 * startJongodb() starts one on a free port (it prints `JONGODB_URI=...` once listening); stop() ends it and
 * waits for its exit, so no process outlives the suite (a process exit kills it too).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PACKAGE = '@jongodb/memory-server-bin-linux-x64-gnu';
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;

export interface JongodbServer {
  url: string;
  stop(): Promise<void>;
}

/** The binary's path, or null when the package is not installed (it exists for linux x64 glibc only). */
export function jongodbBinary(): string | null {
  try {
    const binary = join(dirname(require.resolve(`${PACKAGE}/package.json`)), 'bin', 'jongodb');
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** Whether this machine is one the binary is built for (there, a missing binary is an install failure). */
export function jongodbPlatform(): boolean {
  return process.platform === 'linux' && process.arch === 'x64';
}

export function startJongodb(binary: string): Promise<JongodbServer> {
  const child = spawn(
    binary,
    ['--host=127.0.0.1', '--port=0', '--topology-profile=singlenodereplicaset', '--replica-set-name=rs0'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`jongodb did not start within ${START_TIMEOUT_MS} ms: ${output}`));
    }, START_TIMEOUT_MS);
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /JONGODB_URI=(\S+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      child.stdout.removeListener('data', read);
      child.stdout.resume();
      resolve({ url: match[1], stop });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`jongodb exited (${code ?? signal}) before listening: ${output}`));
    });
  });
}

/**
 * Whether the server at `url` is jongodb (its buildInfo version ends in `-jongodb`), asked synchronously in a
 * child process: jest registers tests synchronously, and which ones are known gaps depends on the answer.
 */
export function isJongodbAt(url: string): boolean {
  const script = `
    const { MongoClient } = require('mongodb');
    const client = new MongoClient(process.argv[1], { serverSelectionTimeoutMS: 5000 });
    client.db('admin').command({ buildInfo: 1 })
      .then((info) => process.stdout.write(String(info.version)))
      .finally(() => client.close());`;
  const version = execFileSync(process.execPath, ['-e', script, url], {
    encoding: 'utf8',
    timeout: 15_000,
    cwd: join(__dirname, '..', '..'),
  });
  return version.endsWith('-jongodb');
}
