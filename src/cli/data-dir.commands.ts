/**
 * `cairn backup PATH` and `cairn restore PATH [--force]`: they work on files, not through the application (restore
 * must not open the data directory it is about to replace), so they run before Nest starts (src/cli.ts).
 */
import { ValidationFailedError } from '../common/errors';
import type { CairnConfig } from '../config/config';
import { backupDataDir } from '../lifecycle/backup';
import { restoreDataDir } from '../lifecycle/restore';
import { writeResult } from './cli-output';

export const DATA_DIR_COMMANDS = ['backup', 'restore'] as const;

export function isDataDirCommand(name: string | undefined): boolean {
  return (DATA_DIR_COMMANDS as readonly string[]).includes(name ?? '');
}

export async function runDataDirCommand(args: string[], config: CairnConfig): Promise<void> {
  const [name, ...rest] = args;
  const force = rest.includes('--force');
  const positional = rest.filter((arg) => arg !== '--force');
  const unknown = positional.filter((arg) => arg.startsWith('--'));
  const usage = name === 'backup' ? 'backup PATH' : 'restore PATH [--force]';
  if (positional.length !== 1 || unknown.length > 0 || (force && name === 'backup')) {
    throw new ValidationFailedError(
      `usage: cairn ${usage}`,
      [{ message: unknown.length > 0 ? `unknown option ${unknown[0]}` : 'expected one PATH' }],
      'usage_error',
    );
  }
  if (config.eventStoreUrl) {
    throw new ValidationFailedError(
      `cairn ${name} copies the embedded SQLite store; with EVENTSTORE_URL use the engines' own backups`,
      [{ field: 'EVENTSTORE_URL', message: 'set' }],
      'usage_error',
    );
  }
  if (name === 'backup') {
    process.stderr.write(`cairn: backing up ${config.dataDir} to ${positional[0]}…\n`);
    const { path, manifest } = await backupDataDir(config.dataDir, positional[0]);
    writeResult({ backup: path, ...manifest });
    return;
  }
  process.stderr.write(`cairn: checking the backup in ${positional[0]}…\n`);
  writeResult({ restored: await restoreDataDir(positional[0], config.dataDir, { force }) });
}
