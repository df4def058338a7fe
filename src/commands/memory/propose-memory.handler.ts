import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AppError, UnsafeContentError } from '../../common/errors';
import { IdGenerator } from '../../common/id-generator';
import { streams } from '../../events/domain-event';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { MemoryItemWriter } from './memory-item-writer';
import { ProposeMemoryCommand, type ProposeMemoryResult } from './propose-memory.command';
import { proposalDecider } from './proposal.decider';
import { UnsafeContentScanner } from '../../safety/unsafe-content/unsafe-content-scanner';

/** Captures a customer-facing fact for review. It changes no memory and no answer until an operator approves it. */
@CommandHandler(ProposeMemoryCommand)
export class ProposeMemoryHandler implements ICommandHandler<ProposeMemoryCommand, ProposeMemoryResult> {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly writer: MemoryItemWriter,
    private readonly ids: IdGenerator,
    private readonly scanner: UnsafeContentScanner,
  ) {}

  async execute(command: ProposeMemoryCommand): Promise<ProposeMemoryResult> {
    const { connector, input, context, reserved } = command;
    const scanned: Record<string, string> = { title: input.title, content: input.content };
    if (input.source_uri !== null) scanned.source_uri = input.source_uri;
    const flags = await this.scanner.scan(scanned);
    if (flags.length > 0) throw new UnsafeContentError(flags);
    // Validates the content the way an approved item will need it (size, non-empty), before anything is stored.
    await this.writer.content({
      ...input,
      format: 'markdown',
      summary: null,
      source_date: null,
      effective_at: null,
      expires_at: null,
    });

    const organization_id = connector.organization_id;
    const proposal_id = reserved?.proposal_id ?? (await this.ids.next('memory_proposal'));
    const memory_source_id = reserved?.memory_source_id ?? (await this.ids.next('memory_source'));
    const result: ProposeMemoryResult = {
      ok: true,
      memory_source_id,
      proposal_id,
      status: 'captured',
      unsafe_flags: [],
    };
    const stream = streams.memoryProposal(proposal_id);
    // A reserved proposal already captured (by an earlier or a concurrent submission of the same reservation).
    if (reserved && (await this.executor.load(stream, proposalDecider)).state.exists) return result;
    await this.writer.registerSource(
      {
        memory_source_id,
        organization_id,
        source_type: 'memory_proposal',
        label: `Proposal from ${connector.name}`,
        source_uri: input.source_uri,
      },
      context,
    );
    const captured = this.executor.execute(
      stream,
      proposalDecider,
      {
        type: 'CaptureProposal',
        proposal: {
          proposal_id,
          organization_id,
          memory_source_id,
          proposed_by: input.correction
            ? `reply_feedback:${input.correction.message_id}`
            : `connector:${connector.connector_id}`,
          connector_id: connector.connector_id,
          client_key: connector.client_key,
          title: input.title,
          content: input.content,
          proposed_type: input.proposed_type,
          source_uri: input.source_uri,
          proposed_policy: input.proposed_policy,
          target_memory_item_id: input.target_memory_item_id ?? null,
          correction: input.correction ?? null,
          ...(input.cited ? { cited: input.cited } : {}),
        },
      },
      context,
      { organizationId: organization_id },
    );
    try {
      await captured;
    } catch (error) {
      // Two submissions of one reservation raced: the other captured it first.
      if (!(reserved && error instanceof AppError && error.code === 'proposal_exists')) throw error;
    }
    return result;
  }
}
