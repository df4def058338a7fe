import { Inject } from '@nestjs/common';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { Command, CommandRunner, Option } from 'nest-commander';
import { OrganizationLoader } from '../commands/shared/organization-loader';
import { STORES, type Stores } from '../infrastructure/stores';
import { exportMemory } from '../lifecycle/memory-export';
import { expectArgs, parseId } from './cli-args';
import { writeFailure, writeResult } from './cli-output';

/**
 * `cairn export ORG [--output FILE]`: JSON Lines of the organization's memory items and revisions. To stdout, the
 * lines are the whole output (no result object); with --output, the file gets the lines and stdout the usual
 * result object. A failure is the usual JSON error on stdout.
 */
@Command({
  name: 'export',
  arguments: '<ORG>',
  description:
    "The organization's memory items and every revision as JSON Lines (docs/operations.md#export), to stdout or --output FILE",
})
export class ExportCommand extends CommandRunner {
  constructor(
    private readonly organizations: OrganizationLoader,
    @Inject(STORES) private readonly stores: Stores,
  ) {
    super();
  }

  async run(params: string[], options: { output?: string } = {}): Promise<void> {
    try {
      expectArgs(params, 1, 'export ORG [--output FILE]');
      const organizationId = parseId(params[0], 'ORG');
      await this.organizations.require(organizationId);
      const out: Writable = options.output ? createWriteStream(options.output) : process.stdout;
      let bytes = 0;
      const totals = await exportMemory(organizationId, this.stores, async (line) => {
        bytes += Buffer.byteLength(line);
        if (!out.write(line)) await once(out, 'drain');
      });
      if (options.output) {
        out.end();
        await once(out, 'finish');
        writeResult({ organization_id: organizationId, output: options.output, ...totals, bytes });
      }
    } catch (error) {
      writeFailure(error);
    }
  }

  @Option({ flags: '--output <file>', description: 'write the lines to FILE (replaced) instead of stdout' })
  parseOutput(value: string): string {
    return value;
  }
}
