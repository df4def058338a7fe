import { Command } from 'nest-commander';
import { StreamAuditor } from '../audit/stream-auditor';
import { ConflictError } from '../common/errors';
import { expectArgs } from './cli-args';
import { JsonCommand } from './json-command';

@Command({
  name: 'audit:stream',
  arguments: '<STREAM>',
  description: "Print a stream's events with their hash chain",
})
export class AuditStreamCommand extends JsonCommand {
  constructor(private readonly auditor: StreamAuditor) {
    super();
  }

  protected execute(params: string[]): Promise<object> {
    expectArgs(params, 1, 'audit:stream STREAM');
    return this.auditor.stream(params[0]);
  }
}

@Command({
  name: 'audit:verify',
  description: 'Check every stream hash chain; fails naming the first broken link',
})
export class AuditVerifyCommand extends JsonCommand {
  constructor(private readonly auditor: StreamAuditor) {
    super();
  }

  protected async execute(params: string[]): Promise<object> {
    expectArgs(params, 0, 'audit:verify');
    const report = await this.auditor.verify((streams) =>
      process.stderr.write(`verified ${streams} streams\r`),
    );
    const broken = report.first_break;
    if (broken) {
      throw new ConflictError(
        'hash_chain_broken',
        `stream ${broken.stream} is broken at revision ${broken.revision} (${broken.reason})`,
        [{ message: broken.reason, ...broken }],
      );
    }
    return { verified: true, streams: report.streams, events: report.events };
  }
}
