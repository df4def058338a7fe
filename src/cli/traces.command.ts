import { Inject } from '@nestjs/common';
import { Command, Option } from 'nest-commander';
import { Clock } from '../common/clock';
import { ValidationFailedError } from '../common/errors';
import type { CairnConfig } from '../config/config';
import { CONFIG } from '../core.module';
import { TraceRetention } from '../lifecycle/trace-retention';
import { expectArgs, parseCount } from './cli-args';
import { JsonCommand } from './json-command';

const DAY_MS = 24 * 60 * 60_000;

@Command({
  name: 'traces:prune',
  description:
    'Prune search recall traces older than CAIRN_TRACE_RETENTION_DAYS (or --older-than-days N) now, as the server does hourly → {recorded_before, pruned, retention_events}',
})
export class TracesPruneCommand extends JsonCommand {
  constructor(
    private readonly retention: TraceRetention,
    private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: Pick<CairnConfig, 'traceRetentionDays'>,
  ) {
    super();
  }

  protected async execute(params: string[], options: { olderThanDays?: number }): Promise<object> {
    expectArgs(params, 0, 'traces:prune [--older-than-days N]');
    if (!this.retention.supported()) {
      throw new ValidationFailedError('recall-trace retention needs the embedded event store', [
        { field: 'EVENTSTORE_URL', message: 'set' },
      ]);
    }
    const days = options.olderThanDays ?? this.config.traceRetentionDays;
    if (days === 0 && options.olderThanDays === undefined) {
      return { recorded_before: null, pruned: 0, retention_events: 0, retention_days: 0 };
    }
    const before = new Date(this.clock.nowMs() - days * DAY_MS);
    return { ...(await this.retention.prune(before, 'operator:cli')), retention_days: days };
  }

  @Option({
    flags: '--older-than-days <n>',
    description: 'prune traces older than N days (0: every search trace recorded so far)',
  })
  parseOlderThanDays(value: string): number {
    return parseCount(value, '--older-than-days');
  }
}
