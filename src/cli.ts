import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli/cli.module';
import { StderrLogger, writeFailure } from './cli/cli-output';
import { isDataDirCommand, runDataDirCommand } from './cli/data-dir.commands';
import { ValidationFailedError } from './common/errors';
import { loadConfig } from './config/config';
import { resolveCliPublicUrl } from './config/server-address';

/**
 * `cairn <command>`: one JSON object on stdout, prose on stderr, non-zero exit with a JSON error on failure.
 * `serve` starts the HTTP server (src/main.ts); `mcp` is a stdio MCP server (its errors on stderr).
 */
async function main(argv: string[]): Promise<void> {
  if (argv[2] === 'serve') {
    process.argv = [argv[0], argv[1], ...argv.slice(3)];
    await import('./main');
    return;
  }
  if (argv[2] === 'mcp') {
    // stdout carries the MCP protocol: no Nest application, no data directory.
    // Errors go to stderr too: MCP hosts read stdout as the protocol. The process ends with the session (stdin
    // closed) even while keep-alive connections to the server are still open.
    const { runStdioProxy } = await import('./mcp/stdio-proxy');
    try {
      await runStdioProxy(argv.slice(3));
    } catch (error) {
      writeFailure(error, 1, process.stderr);
    }
    process.exit();
  }
  if (argv.length <= 2) {
    writeFailure(
      new ValidationFailedError(
        'usage: cairn <command> [arguments] [options]; `npx cairn --help` lists the commands',
        [{ message: 'no command given' }],
        'usage_error',
      ),
      2,
    );
    return;
  }
  const loaded = loadConfig();
  if (isDataDirCommand(argv[2])) {
    await runDataDirCommand(argv.slice(2), loaded);
    return;
  }
  const publicUrl = resolveCliPublicUrl(loaded, process.env);
  if (/^(client-page:|demo$)/.test(argv[2])) {
    process.stderr.write(`cairn: public URL ${publicUrl.url} (from ${publicUrl.source})\n`);
  }
  const config = { ...loaded, publicUrl: publicUrl.url, dataDir: helpDataDir(argv) ?? loaded.dataDir };
  // No memory map of the SQLite file: a command reading all of it (projections:rebuild, audit:verify,
  // memory:ingest) would keep every page it read resident (a 100k-chunk rebuild: ~780 MB of file pages).
  await CommandFactory.run(CliModule.forRoot({ config, storeOptions: { sqliteMmapBytes: 0 } }), {
    logger: new StderrLogger('cairn', { logLevels: ['error', 'warn', 'fatal'] }),
    cliName: 'cairn',
    // Commander has already printed the JSON error through outputError below; only the exit code is left.
    errorHandler: (error) => {
      const code = (error as { code?: unknown }).code;
      process.exit(
        code === 'commander.helpDisplayed' || code === 'commander.help' || code === 'commander.version'
          ? 0
          : 2,
      );
    },
    serviceErrorHandler: (error) => writeFailure(error),
    // Subcommands' usage errors (e.g. a missing argument) bypass errorHandler; their message comes through here.
    outputConfiguration: {
      outputError: (message) =>
        writeFailure(new ValidationFailedError(message.trim().replace(/^error: /, ''), [], 'usage_error')),
    },
  });
}

/**
 * For `--help` (alone or after a command): a scratch data directory, removed at exit. Commander answers it only
 * once the module, stores included, is up: in the configured directory that created `./data/cairn.sqlite`
 * wherever someone asked for help.
 */
function helpDataDir(argv: string[]): string | null {
  if (!argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) return null;
  const dir = mkdtempSync(join(tmpdir(), 'cairn-help-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

main(process.argv).catch((error: unknown) => writeFailure(error));
