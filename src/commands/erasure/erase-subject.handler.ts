import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../common/clock';
import { NotFoundError } from '../../common/errors';
import { streams } from '../../events/domain-event';
import type { SubjectErased } from '../../events/erasure/erasure.events';
import type { MemoryItemCreated } from '../../events/memory/memory.events';
import { CURRENT_SCHEMA_VERSION } from '../../events/domain-event';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
} from '../../infrastructure/event-store/event-store.port';
import { WrongExpectedVersionError } from '../../infrastructure/event-store/wrong-expected-version.error';
import {
  DATA_KEY_STORE,
  subjects,
  type DataKeyStore,
} from '../../infrastructure/erasure/data-key-store.port';
import { STORES, type Stores } from '../../infrastructure/stores';
import { ProjectionRunner } from '../../projections/projection-runner';
import { Consistency } from '../shared/consistency';
import {
  EraseSubjectCommand,
  type EraseSubjectInput,
  type EraseSubjectResult,
} from './erase-subject.command';

/**
 * Events read from the start of an item's stream to find its creation: the parts a large first revision was
 * written in come before it (a document of MAX_DOCUMENT_CHARS is some 32 parts of PART_BUDGET_BYTES).
 */
const OPENING_EVENTS = 256;
/** The events an item's stream can start with. */
const ITEM_OPENINGS = new Set(['MemoryItemCreated', 'MemoryContentPartRecorded']);

/** How long an organization's erasure waits for the rebuild that drops it from every read model. */
const ORGANIZATION_REBUILD_MS = 10 * 60_000;

/**
 * Erasure by crypto-shredding: checks the subject is the organization's (and, for a connector's forget, that the
 * connector saved it), destroys its data keys, records SubjectErased, then waits for the read models to drop it
 * (an organization: every projection rebuilt, which cannot decrypt its data any more) and checkpoints the embedded
 * file so no copy of the text is left in its WAL. The keys go first: a crash before the event leaves the subject
 * unreadable, and running the erasure again records it.
 */
@CommandHandler(EraseSubjectCommand)
export class EraseSubjectHandler implements ICommandHandler<EraseSubjectCommand, EraseSubjectResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(DATA_KEY_STORE) private readonly keys: DataKeyStore | null,
    @Inject(STORES) private readonly stores: Stores,
    private readonly consistency: Consistency,
    private readonly runner: ProjectionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(command: EraseSubjectCommand): Promise<EraseSubjectResult> {
    const { input, context } = command;
    const { subject, linked } = await this.requireSubject(input);
    const keys_destroyed = this.destroyKeys(input, [subject, ...linked]);
    const erased_at = new Date(this.clock.nowMs()).toISOString();
    const data: SubjectErased['data'] = {
      subject,
      kind: input.kind,
      id: input.id,
      organization_id: input.organization_id,
      erased_by: context.actor,
      reason: input.reason,
      linked_subjects: linked,
      keys_destroyed,
      erased_at,
    };
    const stream = streams.erasure(subject);
    let changed = true;
    let recorded = data;
    let position: number;
    try {
      const appended = await this.events.append(
        stream,
        [
          {
            type: 'SubjectErased',
            data,
            metadata: {
              organization_id: String(input.organization_id),
              correlation_id: context.correlation_id,
              causation_id: context.causation_id,
              actor: context.actor,
              occurred_at: erased_at,
              schema_version: CURRENT_SCHEMA_VERSION,
            },
          },
        ],
        'no_stream',
      );
      position = appended.position;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      const [first] = await this.events.readStream(stream, { max_count: 1 });
      changed = false;
      recorded = first.data as SubjectErased['data'];
      position = first.position;
    }
    const read_models_forgot = await this.forget(input, position);
    return {
      subject,
      kind: input.kind,
      id: input.id,
      organization_id: input.organization_id,
      erased: true,
      changed,
      erased_by: recorded.erased_by,
      erased_at: recorded.erased_at,
      linked_subjects: recorded.linked_subjects ?? [],
      keys_destroyed: changed ? keys_destroyed : 0,
      read_models_forgot,
    };
  }

  /**
   * The subject's key name, once it is known to be this organization's (else not found, as any other), and the
   * subjects erased with it: the proposal whose approval created a memory item.
   */
  private async requireSubject(input: EraseSubjectInput): Promise<{ subject: string; linked: string[] }> {
    const org = input.organization_id;
    if (input.kind === 'organization') {
      const first = await this.firstEvent(streams.organization(input.id));
      if (input.id !== org || !first)
        throw new NotFoundError('organization not found', 'organization_not_found');
      return { subject: subjects.organization(org), linked: [] };
    }
    if (input.kind === 'conversation') {
      const first = await this.firstEvent(streams.conversation(input.id));
      if (!first || first.data.organization_id !== org)
        throw new NotFoundError('conversation not found', 'conversation_not_found');
      return { subject: subjects.conversation(input.id), linked: [] };
    }
    // An item created from a large document starts with the parts of its first revision (content-parts.ts), and one
    // whose creation was interrupted has only those: both are erased (their parts hold its text).
    const stream = streams.memoryItem(input.id);
    const first = await this.firstEvent(stream);
    // Read further (and open those events' sealed parts) only for an item that opens with parts.
    const created =
      first?.type === 'MemoryContentPartRecorded'
        ? (await this.events.readStream(stream, { max_count: OPENING_EVENTS })).find(
            (event) => event.type === 'MemoryItemCreated',
          )
        : first;
    if (
      !first ||
      !ITEM_OPENINGS.has(first.type) ||
      first.data.organization_id !== org ||
      (input.connector_id !== undefined && first.metadata.actor !== `connector:${input.connector_id}`)
    )
      throw new NotFoundError('memory item not found', 'memory_item_not_found');
    const proposal =
      created?.type === 'MemoryItemCreated'
        ? (created as unknown as MemoryItemCreated).data.proposal_id
        : undefined;
    return {
      subject: subjects.memoryItem(input.id),
      linked: proposal === undefined ? [] : [subjects.proposal(proposal)],
    };
  }

  private async firstEvent(stream: string): Promise<RecordedEvent | null> {
    const [first] = await this.events.readStream(stream, { max_count: 1 });
    return first ?? null;
  }

  private destroyKeys(input: EraseSubjectInput, names: string[]): number {
    if (!this.keys) return 0;
    return input.kind === 'organization'
      ? this.keys.destroyOrganization(input.organization_id)
      : this.keys.destroySubjects(names, input.organization_id);
  }

  /** Waits until the read models dropped the subject, then empties the embedded file's WAL. */
  private async forget(input: EraseSubjectInput, position: number): Promise<boolean> {
    let applied: boolean;
    if (input.kind === 'organization') {
      await this.runner.rebuild(undefined, ORGANIZATION_REBUILD_MS);
      applied = true;
    } else {
      applied = await this.consistency.waitFor(position);
    }
    const checkpointed = this.stores.checkpoint?.() ?? true;
    return applied && checkpointed;
  }
}
