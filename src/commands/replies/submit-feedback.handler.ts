import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../common/clock';
import { ConflictError, InternalError, NotFoundError, UnsafeContentError } from '../../common/errors';
import { IdGenerator } from '../../common/id-generator';
import { streams } from '../../events/domain-event';
import type { ReplyFeedbackReserved, ReplyFeedbackSubmitted } from '../../events/replies/feedback.events';
import type { ConnectorPrincipal } from '../../http/auth/connector-principal';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import {
  ASSISTANT_MESSAGES,
  type AssistantMessageDocument,
} from '../../projections/conversations.projection';
import { ProposeMemoryCommand, type ProposeMemoryResult } from '../memory/propose-memory.command';
import { UnsafeContentScanner } from '../../safety/unsafe-content/unsafe-content-scanner';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { assistantMessageById, conversationDecider } from './conversation.decider';
import { assertSameSubmission, feedbackDecider } from './feedback.decider';
import { FeedbackClaims } from './feedback-claims';
import {
  feedbackFingerprint,
  feedbackIdentities,
  hasText,
  legacyFingerprints,
  resolveFeedback,
  type FeedbackIdentity,
  type ResolvedFeedback,
  storedTextErased,
} from './feedback-rules';
import { SubmitFeedbackCommand, type SubmitFeedbackResult } from './submit-feedback.command';
import { MEMORY_ITEMS, type MemoryItemDocument } from '../../projections/memory.projection';
import type { ReceiptReference } from './reply-receipt';
import { replyCitedReferences } from './reply-cited-references';
import type { CitedSpan } from '../../events/memory/proposal.events';
import { locateCitedSpan } from '../memory/correction-span';
import { MemoryItemWriter } from '../memory/memory-item-writer';
import { withSealingScope } from '../../infrastructure/erasure/sealing-scope';

/**
 * Feedback on a suggested reply (spec §4.7). Resolves outcome and rating, finds the assistant message (a read-model
 * look-up names its conversation; the conversation stream decides whether the caller may see it), then resolves
 * the feedback its keys name (FeedbackClaims: external_feedback_id or idempotency_key, either one identifies it):
 * a retry with the same content replays the first result, other content is a 409 naming the key that matched.
 *
 * A new feedback is first reserved on its stream (ids, proposal id, fingerprint; the first reservation wins), then
 * a `corrected` outcome's pending memory proposal is captured under the reserved proposal id through
 * ProposeMemoryCommand (the normal safety and review flow; never approved here; idempotent for a reserved id), then
 * the feedback is recorded, so the recorded feedback always names an existing proposal and concurrent submissions
 * capture one proposal. A crash between the steps is resumed by the next submission under any of its keys.
 */
const MAX_ROUNDS = 5;

@CommandHandler(SubmitFeedbackCommand)
export class SubmitFeedbackHandler implements ICommandHandler<SubmitFeedbackCommand, SubmitFeedbackResult> {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly commands: CommandBus,
    private readonly ids: IdGenerator,
    private readonly scanner: UnsafeContentScanner,
    private readonly clock: Clock,
    private readonly writer: MemoryItemWriter,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly claims: FeedbackClaims,
  ) {}

  async execute(command: SubmitFeedbackCommand): Promise<SubmitFeedbackResult> {
    const { connector, messageId, input, context } = command;
    const resolved = resolveFeedback(input);
    const scope = {
      organization_id: connector.organization_id,
      connector_id: connector.connector_id,
      message_id: messageId,
    };
    const identities = feedbackIdentities({
      ...scope,
      external_feedback_id: input.external_feedback_id,
      idempotency_key: input.idempotency_key,
    });
    const message = await this.requireAssistantMessage(connector, messageId);
    // The reader's suggested answer and note are sealed under the conversation and every item the reply cited:
    // erasing a cited item erases the correction of the answer that quoted it, as it erases that answer.
    const cited = await replyCitedReferences(this.executor, this.readStore, {
      organizationId: connector.organization_id,
      replyId: message.reply_id,
      requestDigest: message.request_digest,
    });
    const sealing = { cited_item_ids: [...new Set(cited.map((c) => c.memory_item_id))] };
    const content = { ...input, ...resolved };
    const fingerprint = feedbackFingerprint(content);
    // Feedback recorded before fingerprint version 2 carries the legacy fingerprint (both retry keys included).
    const fingerprintFor = (
      stored: Pick<ReplyFeedbackSubmitted['data'], 'fingerprint' | 'retry_key_kind' | 'retry_key'>,
    ): string =>
      legacyFingerprints(content, stored, input.idempotency_key).includes(stored.fingerprint)
        ? stored.fingerprint
        : fingerprint;

    // Everything stored (the event, and a proposal) is scanned first; unsafe content stores nothing.
    const scanned: Record<string, string> = {};
    if (input.suggested_answer !== null) scanned.suggested_answer = input.suggested_answer;
    if (input.note !== null) scanned.note = input.note;
    const flags = Object.keys(scanned).length > 0 ? await this.scanner.scan(scanned) : [];
    if (flags.length > 0) throw new UnsafeContentError(flags);

    for (let round = 0; round < MAX_ROUNDS; round++) {
      // Either key identifies the feedback: resolve (and claim) first; changed content is refused before any write.
      const found = await this.claims.resolve(
        identities,
        scope,
        input.external_feedback_id,
        context,
        (state, matchedBy) => {
          const first = state.submitted ?? state.reserved;
          if (first && !storedTextErased(first, input.idempotency_key))
            assertSameSubmission(first, fingerprintFor(first), matchedBy ?? undefined);
        },
      );
      const stream = streams.replyFeedback(found.digest);
      if (found.loaded.state.submitted) return resultOf(found.loaded.state.submitted, true);

      // Reserve the ids (the proposal's too) before any proposal exists: the first reservation wins, so every
      // submission of this feedback, in any process, captures the same one proposal.
      let reservation = found.loaded.state.reserved;
      if (!reservation) {
        const reserving = await this.reservation(command, resolved, fingerprint, message, identities[0]);
        const executed = await withSealingScope(sealing, () =>
          this.executor.executeOn(
            stream,
            feedbackDecider,
            found.loaded,
            { type: 'ReserveFeedback', reservation: reserving },
            context,
            { organizationId: connector.organization_id, waitFor: [] },
          ),
        );
        if (executed.state.moved_to !== null) continue; // never reserved, its identities moved: resolve again
        if (executed.state.submitted) return resultOf(executed.state.submitted, true);
        reservation = executed.state.reserved;
      }
      if (!reservation) throw new InternalError('feedback not reserved');

      const {
        reserved_at: _reserved,
        memory_source_id,
        external_feedback_id: _id,
        ...feedback
      } = reservation;
      if (feedback.proposal_id !== null && memory_source_id !== null) {
        await this.proposeCorrection(
          command,
          {
            reply_id: message.reply_id,
            message_id: messageId,
            conversation_id: message.conversation_id,
            feedback_id: feedback.feedback_id,
            response_review_id: feedback.response_review_id,
          },
          cited,
          { proposal_id: feedback.proposal_id, memory_source_id },
        );
      }
      const executed = await withSealingScope(sealing, () =>
        this.executor.execute(
          stream,
          feedbackDecider,
          { type: 'SubmitFeedback', feedback: { ...feedback, submitted_at: this.clock.nowIso() } },
          context,
          { organizationId: connector.organization_id },
        ),
      );
      const submitted = executed.state.submitted;
      if (!submitted) throw new InternalError('feedback not recorded');
      // No events: a concurrent submission of the same feedback recorded it first; answer with its result.
      return resultOf(submitted, executed.events.length === 0);
    }
    throw new ConflictError('feedback_pending', 'a matching feedback is being recorded; retry later');
  }

  /** A new reservation: fresh ids, and for `corrected` the proposal's ids. */
  private async reservation(
    command: SubmitFeedbackCommand,
    { outcome, rating }: ResolvedFeedback,
    fingerprint: string,
    message: { conversation_id: number; reply_id: number },
    primary: FeedbackIdentity,
  ): Promise<ReplyFeedbackReserved['data']> {
    const { connector, messageId, input } = command;
    const corrected = outcome === 'corrected';
    return {
      feedback_id: await this.ids.next('reply_feedback'),
      response_review_id: await this.ids.next('response_review'),
      proposal_id: corrected ? await this.ids.next('memory_proposal') : null,
      memory_source_id: corrected ? await this.ids.next('memory_source') : null,
      organization_id: connector.organization_id,
      connector_id: connector.connector_id,
      message_id: messageId,
      reply_id: message.reply_id,
      conversation_id: message.conversation_id,
      retry_key_kind: primary.key_kind,
      retry_key: primary.key,
      external_feedback_id: input.external_feedback_id || null,
      fingerprint,
      outcome,
      rating,
      feedback_kind: input.feedback_kind,
      feedback_issue: input.feedback_issue,
      suggested_answer: input.suggested_answer,
      note: input.note,
      reserved_at: this.clock.nowIso(),
    };
  }

  /**
   * The assistant message `messageId` if the caller may give feedback on it: created by the external reply
   * endpoint in a conversation of the caller's organization AND connector. Anything else, a user message included,
   * is the same 404 (another tenant's ids are never revealed).
   */
  private async requireAssistantMessage(
    connector: ConnectorPrincipal,
    messageId: number,
  ): Promise<{ conversation_id: number; reply_id: number; request_digest: string | null }> {
    const notFound = new NotFoundError(`message ${messageId} not found`, 'message_not_found');
    const lookup = await this.readStore.get<AssistantMessageDocument>(ASSISTANT_MESSAGES, String(messageId));
    if (!lookup || lookup.organization_id !== connector.organization_id) throw notFound;
    const { state } = await this.executor.load(
      streams.conversation(lookup.conversation_id),
      conversationDecider,
    );
    const conversation = state.conversation;
    const message = assistantMessageById(state, messageId);
    if (
      !conversation ||
      !message ||
      conversation.organization_id !== connector.organization_id ||
      conversation.connector_id !== connector.connector_id
    ) {
      throw notFound;
    }
    return {
      conversation_id: conversation.conversation_id,
      reply_id: message.reply_id,
      request_digest: lookup.request_digest ?? null,
    };
  }

  /**
   * A pending `correction` proposal with the suggested answer, through the normal proposal flow (spec §4.7 rule 2:
   * never authoritative until an operator approves it). It targets what the reply cited: the first authoritative
   * cited item (else the first cited), under that item's title and source, so approving it revises that item (a new
   * revision; the old one is superseded, never deleted) and the next reply uses the correction. A reply whose
   * receipt cannot be read (not completed) gets a correction that approval adds as a new item.
   */
  private async proposeCorrection(
    command: SubmitFeedbackCommand,
    ids: {
      reply_id: number;
      message_id: number;
      conversation_id: number;
      feedback_id: number;
      response_review_id: number;
    },
    cited: ReceiptReference[],
    reserved: { proposal_id: number; memory_source_id: number },
  ): Promise<number> {
    const { connector, input, context } = command;
    if (!hasText(input.suggested_answer)) throw new InternalError('corrected feedback without an answer');
    const target = cited.find((c) => c.authority.role === 'authoritative') ?? cited[0];
    const item = target
      ? await this.readStore.get<MemoryItemDocument>(MEMORY_ITEMS, String(target.memory_item_id))
      : null;
    const proposed = await this.commands.execute<ProposeMemoryCommand, ProposeMemoryResult>(
      new ProposeMemoryCommand(
        connector,
        {
          title: item?.title ?? `Correction to reply ${ids.reply_id}`,
          content: input.suggested_answer,
          proposed_type: 'correction',
          source_uri: item?.source_uri ?? null,
          // A correction keeps its item's audience; one without a target is proposed as internal.
          proposed_policy: {
            review_required: true,
            customer_safe_candidate: item?.audience === 'customer_safe',
          },
          target_memory_item_id: item ? item.memory_item_id : null,
          correction: { ...ids, cited_memory_item_ids: cited.map((c) => c.memory_item_id) },
          cited: item && target ? await this.citedSpan(target) : null,
        },
        context,
        reserved,
      ),
    );
    return proposed.proposal_id;
  }

  /** The text of the cited revision the correction replaces (see locateCitedSpan). */
  private async citedSpan(reference: ReceiptReference): Promise<CitedSpan> {
    const atCited = await this.writer.atRevision(reference.memory_item_id, reference.revision);
    const located = atCited
      ? locateCitedSpan(atCited.content, atCited.chunks, reference.memory_chunk_ids, reference.excerpt)
      : null;
    return {
      memory_item_id: reference.memory_item_id,
      revision: reference.revision,
      reference_id: reference.reference_id,
      reference_excerpt: reference.excerpt,
      memory_chunk_id: located?.memory_chunk_id ?? null,
      span: located?.span ?? null,
    };
  }
}

function resultOf(
  feedback: ReplyFeedbackSubmitted['data'],
  idempotent_replay: boolean,
): SubmitFeedbackResult {
  return {
    ok: true,
    outcome: feedback.outcome,
    rating: feedback.rating,
    feedback_id: feedback.feedback_id,
    response_review_id: feedback.response_review_id,
    ...(feedback.proposal_id !== null ? { proposal_id: feedback.proposal_id } : {}),
    idempotent_replay,
  };
}
