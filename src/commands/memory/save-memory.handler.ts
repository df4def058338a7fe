import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import { InternalError, UnsafeContentError } from '../../common/errors';
import { IdGenerator } from '../../common/id-generator';
import { streams } from '../../events/domain-event';
import { canonicalDigest } from '../shared/canonical-digest';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { ErasedMemoryItems } from './erased-memory-items';
import { memorySaveDecider } from './memory-save.decider';
import { MemoryItemWriter } from './memory-item-writer';
import { SaveMemoryCommand, type SaveMemoryResult } from './save-memory.command';
import { UnsafeContentScanner } from '../../safety/unsafe-content/unsafe-content-scanner';

/**
 * A connector's internal note. Scanned first: unsafe content is refused and nothing is stored. Saved notes are
 * `internal` audience, `unverified` authority: never customer-facing evidence. With an idempotency key, the key's
 * stream is claimed before anything else, so a retry (or a racing duplicate) replays the first save and a crash
 * half-way is completed by the retry.
 */
@CommandHandler(SaveMemoryCommand)
export class SaveMemoryHandler implements ICommandHandler<SaveMemoryCommand, SaveMemoryResult> {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly writer: MemoryItemWriter,
    private readonly ids: IdGenerator,
    private readonly scanner: UnsafeContentScanner,
    private readonly erasures: ErasedMemoryItems,
  ) {}

  async execute(command: SaveMemoryCommand): Promise<SaveMemoryResult> {
    const { connector, input, context } = command;
    const organization_id = connector.organization_id;
    const scanned: Record<string, string> = { title: input.title, content: input.content };
    if (input.summary !== null) scanned.summary = input.summary;
    if (input.source_uri !== null) scanned.source_uri = input.source_uri;
    const flags = await this.scanner.scan(scanned);
    if (flags.length > 0) throw new UnsafeContentError(flags);

    const content = await this.writer.content({
      title: input.title,
      content: input.content,
      format: 'markdown',
      summary: input.summary,
      source_date: null,
      effective_at: null,
      expires_at: null,
    });
    let ids = {
      memory_item_id: await this.ids.next('memory_item'),
      memory_source_id: await this.ids.next('memory_source'),
    };
    if (input.idempotency_key !== null) {
      const key = createHash('sha256')
        .update(`${organization_id}\u0000${connector.client_key}\u0000${input.idempotency_key}`)
        .digest('hex');
      const stream = streams.memorySave(key);
      const loaded = await this.executor.load(stream, memorySaveDecider);
      const earlier = loaded.state.accepted;
      // The key's note was forgotten (erased): refused whatever this request holds. Comparing it with the erased
      // note's fingerprint (a replay, or idempotency_key_reused) would confirm a guess of the erased text.
      if (earlier) await this.erasures.requireNotErased(organization_id, earlier.memory_item_id);
      const claimed = await this.executor.executeOn(
        stream,
        memorySaveDecider,
        loaded,
        {
          type: 'AcceptSave',
          save: {
            organization_id,
            connector_id: connector.connector_id,
            fingerprint: fingerprint(input),
            ...ids,
            visibility: input.visibility,
          },
        },
        context,
        { organizationId: organization_id, waitFor: [] },
      );
      if (!claimed.state.accepted) throw new InternalError('save claim missing');
      ids = {
        memory_item_id: claimed.state.accepted.memory_item_id,
        memory_source_id: claimed.state.accepted.memory_source_id,
      };
    }
    await this.writer.registerSource(
      {
        memory_source_id: ids.memory_source_id,
        organization_id,
        source_type: 'tool_work_log',
        label: `${connector.name} (${input.kind})`,
        source_uri: input.source_uri,
      },
      context,
    );
    await this.writer.create(
      { organization_id, ...ids },
      content,
      {
        type: input.kind,
        audience: 'internal',
        authority_level: 'unverified',
        visibility: input.visibility,
        owner_client_key: input.visibility === 'tool_private' ? connector.client_key : null,
        source_uri: input.source_uri,
      },
      context,
    );
    return { ok: true, ...ids, status: 'confirmed', visibility: input.visibility, unsafe_flags: [] };
  }
}

/** What makes two saves "the same request": everything but the key itself. */
function fingerprint(input: SaveMemoryCommand['input']): string {
  const { kind, title, content, summary, visibility, source_uri } = input;
  return canonicalDigest({ kind, title, content, summary, visibility, source_uri });
}
