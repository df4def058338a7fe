import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { streams } from '../../events/domain-event';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { recallTraceDecider } from './recall-trace.decider';
import { ReportUsageCommand } from './report-usage.command';

/** Records which results of a trace helped; only the trace's own connector may report, only for its results. */
@CommandHandler(ReportUsageCommand)
export class ReportUsageHandler implements ICommandHandler<ReportUsageCommand, { ok: true }> {
  constructor(private readonly executor: StreamCommandExecutor) {}

  async execute(command: ReportUsageCommand): Promise<{ ok: true }> {
    const { connector } = command;
    await this.executor.execute(
      streams.recallTrace(command.traceId),
      recallTraceDecider,
      {
        type: 'ReportUsage',
        organization_id: connector.organization_id,
        connector_id: connector.connector_id,
        used_item_ids: command.usedItemIds,
        ignored_item_ids: command.ignoredItemIds,
      },
      command.context,
      { organizationId: connector.organization_id },
    );
    return { ok: true };
  }
}
