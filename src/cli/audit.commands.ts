import { Command, Option } from 'nest-commander';
import { StreamAuditor } from '../audit/stream-auditor';
import { TraceVolume } from '../audit/trace-volume';
import { ConflictError, ValidationFailedError } from '../common/errors';
import { expectArgs, parseId } from './cli-args';
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

@Command({
  name: 'audit:trace-volume',
  arguments: '<ORG>',
  description:
    'Recall traces (searches) and their bytes per connector of an organization → {connectors, total}',
})
export class AuditTraceVolumeCommand extends JsonCommand {
  constructor(private readonly volume: TraceVolume) {
    super();
  }

  protected execute(params: string[], options: { since?: Date }): Promise<object> {
    expectArgs(params, 1, 'audit:trace-volume ORG [--since ISO]');
    return this.volume.report(parseId(params[0], 'ORG'), options.since ?? null);
  }

  @Option({ flags: '--since <iso>', description: 'only traces recorded at or after this ISO 8601 time' })
  parseSince(value: string): Date {
    const at = new Date(value);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime())) {
      throw new ValidationFailedError('--since must be an ISO 8601 time', [
        { field: '--since', message: 'ISO 8601 time, e.g. 2026-01-31T00:00:00Z' },
      ]);
    }
    return at;
  }
}
