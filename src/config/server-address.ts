import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CairnConfig } from './config';

/** What a running server leaves in its data directory, so the CLI on the same directory uses the same public URL. */
export const SERVER_FILE = 'server.json';

interface ServerAddress {
  public_url: string;
  pid: number;
  started_at: string;
}

/** Written by the server once it listens (atomically: a reader never sees half a file). */
export function recordServerAddress(config: CairnConfig, pid: number, now: Date): void {
  const file = join(config.dataDir, SERVER_FILE);
  const address: ServerAddress = { public_url: config.publicUrl, pid, started_at: now.toISOString() };
  writeFileSync(`${file}.${pid}.tmp`, `${JSON.stringify(address, null, 2)}\n`);
  renameSync(`${file}.${pid}.tmp`, file);
}

export interface ResolvedPublicUrl {
  url: string;
  /** Which rule gave it, for the operator. */
  source: string;
}

/**
 * The public URL the CLI puts in links, resolved as the server does: CAIRN_PUBLIC_URL when set; else the URL of
 * the server running on this data directory (its server.json, when that process is alive); else from PORT and
 * HOST (http://127.0.0.1:3000 by default), like a server started with this environment.
 */
export function resolveCliPublicUrl(
  config: CairnConfig,
  env: NodeJS.ProcessEnv,
  alive: (pid: number) => boolean = processAlive,
): ResolvedPublicUrl {
  if (env.CAIRN_PUBLIC_URL) return { url: config.publicUrl, source: 'CAIRN_PUBLIC_URL' };
  const file = join(config.dataDir, SERVER_FILE);
  const running = readAddress(file);
  if (running && alive(running.pid)) {
    return {
      url: running.public_url,
      source: `the server running on this data directory (pid ${running.pid}, ${file})`,
    };
  }
  return {
    url: config.publicUrl,
    source: `PORT=${config.port} and HOST=${config.host}; no CAIRN_PUBLIC_URL, no server running on ${config.dataDir}`,
  };
}

function readAddress(file: string): ServerAddress | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ServerAddress>;
    return typeof parsed.public_url === 'string' && Number.isSafeInteger(parsed.pid)
      ? (parsed as ServerAddress)
      : null;
  } catch {
    return null;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
