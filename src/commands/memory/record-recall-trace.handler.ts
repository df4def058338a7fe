import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IdGenerator } from '../../common/id-generator';
import { streams } from '../../events/domain-event';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { recallTraceDecider } from './recall-trace.decider';
import { RecordRecallTraceCommand } from './record-recall-trace.command';

/** Records what a search returned, as the trace that usage reports (and later replies) bind to. Returns its id. */
@CommandHandler(RecordRecallTraceCommand)
export class RecordRecallTraceHandler implements ICommandHandler<RecordRecallTraceCommand, number> {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly ids: IdGenerator,
  ) {}

  async execute(command: RecordRecallTraceCommand): Promise<number> {
    const { connector, search, context } = command;
    const trace_id = await this.ids.next('recall_trace');
    // A fresh id: the stream is new (not read first). No wait for read models: usage reports are checked against
    // this stream itself.
    await this.executor.executeNew(
      streams.recallTrace(trace_id),
      recallTraceDecider,
      {
        type: 'RecordTrace',
        trace: {
          trace_id,
          organization_id: connector.organization_id,
          connector_id: connector.connector_id,
          client_key: connector.client_key,
          ...search,
        },
      },
      context,
      // A search is a read: its trace need not wait for the disk (a power cut in the next moment costs a
      // repeated search); it survives a process crash at once, and every later append is ordered after it.
      { organizationId: connector.organization_id, waitFor: [], durability: 'committed' },
    );
    return trace_id;
  }
}
