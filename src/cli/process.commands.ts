import { Command, CommandRunner } from 'nest-commander';

/**
 * `serve` and `mcp` are long-running processes, dispatched by src/cli.ts before the CLI's Nest application exists
 * (no data directory opened, nothing on stdout but the server's logs or the MCP protocol). They are declared here
 * only so that `cairn --help` lists them.
 */
abstract class DispatchedBeforeNest extends CommandRunner {
  run(): Promise<void> {
    return Promise.reject(new Error(`${this.constructor.name} is run by src/cli.ts, never through Nest`));
  }
}

@Command({
  name: 'serve',
  arguments: '[--demo] [--demo-model]',
  description:
    'Start the HTTP server (CAIRN_HTTP_WORKERS processes; --demo creates the demo organization on first start; --demo-model answers replies with the demo model, which quotes its evidence)',
})
export class ServeCommand extends DispatchedBeforeNest {}

@Command({
  name: 'mcp',
  description:
    '--url URL [--token TOKEN]: a stdio MCP server for local AI tools, forwarding to a running server’s /mcp with a connector token (--token or CAIRN_TOKEN); ends when stdin closes',
})
export class McpCommand extends DispatchedBeforeNest {}

@Command({
  name: 'backup',
  arguments: '<PATH>',
  description:
    'Copy every SQLite file of the data directory into PATH while servers run (one read transaction per file), verify the copy as audit:verify does, then write its manifest',
})
export class BackupCommand extends DispatchedBeforeNest {}

@Command({
  name: 'restore',
  arguments: '<PATH> [--force]',
  description:
    "Check a backup (manifest, audit:verify) and copy it into the data directory: never while a process uses it; a non-empty directory's databases only with --force",
})
export class RestoreCommand extends DispatchedBeforeNest {}
