import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import type { CairnConfig } from '../../config/config';
import { CONFIG } from '../../core.module';
import { IdGenerator } from '../../common/id-generator';
import type { ReplyRequested } from '../../events/replies/reply-request.events';
import type { ConnectorPrincipal } from '../../http/auth/connector-principal';
import type { CommandContext } from '../shared/command-context';
import { draftAndReview } from './reply-drafting';
import { isAuthoritativeGround, type EvidenceItem } from './reply-evidence';
import { ReplyAbort } from './reply-abort';
import { ReplyConversation } from './reply-conversation';
import { ReplyGate } from './reply-gate';
import { ReplyTools } from './reply-tools';
import { ReplyModels } from './reply-models';
import { OUTCOME_POLICY_VERSION } from './outcome-policy';
import {
  buildReceiptV2,
  CONTRACT_VERSION,
  GROUNDING_POLICY_VERSION,
  REVIEW_POLICY_VERSION,
  SOURCE_LINK_POLICY_VERSION,
  type ReceiptReference,
  type ReplyReceiptV2,
} from './reply-receipt';
import { ReplyRetrieval } from './reply-retrieval';
import type { ReplyRequestInput } from './request-reply.command';
import { selectSourceLinks, unsafeLinkReason } from './source-links';
import type { ConflictEntry } from '../../grounding/evidence-conflicts';
import { withholdUnsafeLinks } from '../../safety/link-text';
import { threadContext } from './thread-context';
import { receiptBindingProblem } from './receipt-bindings';
import { citableIds } from './receipt-bindings';
import { confirmationsFrom, finalReviewInputOf, ledgerDigest } from './review-ledger';
import { withSealingScope } from '../../infrastructure/erasure/sealing-scope';

/** Why a completed reply is not replayed: its typed system_status code and, for the log, the reason. */
export type ReplayRefusal = {
  code: 'completed_reply_requires_regeneration' | 'completed_reply_no_longer_available';
  reason: string;
};

/** A cited reference as bound and returned, with the conflicts the review reported on it (spec §2.6). */
function receiptReference(
  e: EvidenceItem,
  conflicts: ReadonlyMap<string, ConflictEntry[]>,
): ReceiptReference {
  const entries = conflicts.get(e.reference.reference_id) ?? [];
  return { ...e.reference, conflicts: entries.map((entry) => ({ ...entry })), revision: e.revision };
}

/** One run of a reply: conversation, evidence, drafting and review, links, assistant message, receipt. */
@Injectable()
export class ReplyRun {
  constructor(
    private readonly conversation: ReplyConversation,
    private readonly retrieval: ReplyRetrieval,
    private readonly models: ReplyModels,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly gate: ReplyGate,
    private readonly tools: ReplyTools,
    @Inject(CONFIG) private readonly config: Pick<CairnConfig, 'replyThreadLimit'>,
  ) {}

  async run(args: {
    connector: ConnectorPrincipal;
    chatbot_id: number;
    input: ReplyRequestInput;
    request: ReplyRequested['data'];
    fingerprint: string;
    /** Aborted when the process shuts down: the run ends as `assistant_run_canceled`. */
    signal: AbortSignal;
    /** The request's context: its events' metadata; its correlation id is the HTTP request id. */
    context: CommandContext;
    /** Whether this attempt still holds the request (a slow run may outlive its lease and be reclaimed). */
    stillOwner: () => Promise<boolean>;
  }): Promise<ReplyReceiptV2> {
    const { connector, chatbot_id, input, request, context } = args;
    const scope = {
      organization_id: connector.organization_id,
      connector_id: connector.connector_id,
      chatbot_id,
      external_thread_id: input.external_thread_id,
    };
    const opened = await this.conversation.open(
      scope,
      {
        reply_id: request.reply_id,
        text: input.payload.text,
        external_message_id: request.external_message_id,
      },
      context,
    );
    // What the reply records from here (recall trace, tool runs, messages) is sealed under its conversation.
    return withSealingScope({ conversation_id: opened.conversation_id }, () => this.answer(args, opened));
  }

  private async answer(
    args: Parameters<ReplyRun['run']>[0],
    opened: Awaited<ReturnType<ReplyConversation['open']>>,
  ): Promise<ReplyReceiptV2> {
    const { connector, chatbot_id, input, request, fingerprint, signal, context } = args;
    const { conversation_id, user_message_id } = opened;
    if (opened.reply_already_answered) {
      // An earlier attempt stored this reply's assistant message and died before completing: the message may
      // differ from anything drafted now, so the request is never answered again (spec §3: 409 from now on).
      throw new ReplyAbort(
        'assistant_runtime_failed',
        'an earlier attempt stored its assistant message but did not complete',
        true,
      );
    }
    if (opened.assistant_replies >= this.config.replyThreadLimit) {
      throw new ReplyAbort(
        'assistant_safety_limit_reached',
        `the thread already has ${opened.assistant_replies} assistant replies (limit ${this.config.replyThreadLimit})`,
      );
    }
    const agent_run_id = await this.ids.next('agent_run');
    const retrieved = await this.retrieval.retrieve(connector, input.payload.text, context);
    const policy = connector.grounding_policy;
    if (policy === 'strict' && !retrieved.evidence.some((e) => isAuthoritativeGround(e.reference))) {
      throw new ReplyAbort(
        'authoritative_evidence_insufficient',
        'no authoritative, eligible evidence was found',
      );
    }
    if (retrieved.evidence.length === 0) {
      throw new ReplyAbort('authoritative_evidence_insufficient', 'no customer-safe evidence was found');
    }
    const drafted = await draftAndReview(this.models, {
      question: input.payload.text,
      thread: threadContext({ ...input.payload, channel: input.channel ?? 'email' }),
      evidence: retrieved.evidence,
      policy,
      signal,
      requestId: context.correlation_id,
      toolbox: await this.tools.toolboxFor(connector, request.reply_id, context),
    });
    const changed = await this.retrieval.changedSince(
      drafted.cited.map((e) => ({ memory_item_id: e.reference.memory_item_id, revision: e.revision })),
    );
    if (changed.length > 0) {
      throw new ReplyAbort('evidence_changed', `cited items changed since retrieval: ${changed.join(', ')}`);
    }
    // Operators may pause while the models work: nothing is recorded for a paused assistant or organization.
    const gate = await this.gate.check(connector.organization_id, chatbot_id);
    if (gate.paused !== null) {
      throw new ReplyAbort('assistant_run_canceled', `canceled during the run: ${gate.paused}`);
    }
    if (signal.aborted) throw new ReplyAbort('assistant_run_canceled', 'canceled during the run: shutdown');
    if (!(await args.stillOwner())) {
      throw new ReplyAbort(
        'assistant_run_canceled',
        'the lease expired and another attempt took the request over',
      );
    }
    const source_links = selectSourceLinks(
      drafted.cited.map((e) => ({ label: e.reference.title, url: e.reference.source_uri })),
    );
    // The answer quotes its evidence: it is sealed under every cited item too (erasing one erases the answer).
    const cited_item_ids = drafted.cited.map((e) => e.reference.memory_item_id);
    const assistant_message_id = await withSealingScope({ cited_item_ids }, () =>
      this.conversation.recordAssistant(
        { organization_id: connector.organization_id, conversation_id },
        { reply_id: request.reply_id, text: drafted.draft.answer, request_digest: request.identity_digest },
        context,
      ),
    );
    const authoritative = drafted.cited.filter((e) => isAuthoritativeGround(e.reference)).length;
    const review = drafted.review;
    const semantic_sufficiency = {
      sufficient: review.sufficient,
      answers_as_asked: review.answers_as_asked,
      all_claims_supported: review.claims.every((c) => c.supported),
      reviewer_model: drafted.reviewerModel,
      review_input_sha256: drafted.reviewInputSha256,
      reason: review.reason || null,
    };
    const receiptRefs = drafted.cited.map((e) => receiptReference(e, drafted.conflicts));
    const toolEvidence = drafted.toolEvidence.map((t) => ({
      tool_key: t.tool_key,
      tool_run_id: t.tool_run_id,
      input_sha256: t.input_sha256,
      output_sha256: t.output_sha256,
      output_schema_sha256: t.output_schema_sha256,
    }));
    return buildReceiptV2({
      request_fingerprint: fingerprint,
      identity_digest: request.identity_digest,
      reply_id: request.reply_id,
      external_thread_id: request.external_thread_id,
      external_message_id: request.external_message_id,
      organization_id: connector.organization_id,
      chatbot_id,
      conversation_id,
      user_message_id,
      assistant_message_id,
      connector_id: connector.connector_id,
      original_token_id: request.token_id,
      current_token_id: connector.token_id,
      agent_run_id,
      final_text: drafted.draft.answer,
      references: receiptRefs,
      tool_evidence: toolEvidence,
      review_ledger: drafted.ledger,
      review_ledger_sha256: ledgerDigest(drafted.ledger),
      final_review_input_sha256: drafted.reviewInputSha256,
      final_review_input: finalReviewInputOf(drafted.reviewInput),
      evidence_fingerprints: drafted.cited.map((e) => ({
        reference_id: e.reference.reference_id,
        memory_item_id: e.reference.memory_item_id,
        revision: e.revision,
        content_sha256: e.content_sha256,
      })),
      // Derived from the approving review's bound verdicts, never assumed: buildReceiptV2 refuses any false one.
      reviewer_confirmations: confirmationsFrom(drafted.ledger[drafted.ledger.length - 1], {
        final_text: drafted.draft.answer,
        answer_mode: drafted.draft.answer_mode,
        within: citableIds({ references: receiptRefs, tool_evidence: toolEvidence }),
        figuresChecked: drafted.claimChecksPassed,
      }),
      policy_versions: {
        grounding_policy: policy,
        grounding_policy_version: GROUNDING_POLICY_VERSION,
        outcome_policy_version: OUTCOME_POLICY_VERSION,
        review_policy_version: REVIEW_POLICY_VERSION,
        source_link_policy_version: SOURCE_LINK_POLICY_VERSION,
      },
      source_links,
      usage: drafted.usage,
      grounding: {
        status: policy === 'strict' ? 'grounded' : 'reviewed',
        reason: null,
        trace_id: retrieved.trace_id,
        evidence_as_of: retrieved.evidence_as_of,
        corpus_revision: retrieved.corpus_revision,
        index_revision: retrieved.index_revision,
        authoritative_reference_count: authoritative,
        supporting_reference_count: drafted.cited.length - authoritative,
        inferences: drafted.draft.inferences,
        uncertainties: drafted.draft.uncertainties,
        gaps: drafted.draft.gaps,
        generated_at: new Date(this.clock.nowMs()).toISOString(),
        semantic_sufficiency,
      },
      memory_recall_trace_id: retrieved.trace_id,
      answer_mode: drafted.draft.answer_mode,
      answer_intent: drafted.draft.answer_intent,
      contract_version: CONTRACT_VERSION,
    });
  }

  /**
   * Before a completed reply is replayed (spec §3, §9.3; docs/replies.md "Replay re-checks"): the caller is the same
   * connector (a rotated token of it may replay); the receipt's own bindings hold under the rules in force (policy
   * versions, review ledger, final review input, reviewer confirmations: else `completed_reply_requires_regeneration`);
   * and what it binds in the world still stands (else `completed_reply_no_longer_available`): tools, the
   * conversation with the bound user message (this request's latest message) and assistant message, every reference
   * (same revision and content, still eligible, in the recorded recall trace), every link. Returns the receipt to
   * replay, with each reference's freshness as of now, or the refusal.
   */
  async revalidate(
    receipt: ReplyReceiptV2,
    connector: ConnectorPrincipal,
    question: string,
  ): Promise<{ receipt: ReplyReceiptV2 } | { refused: ReplayRefusal }> {
    const gone = (reason: string) => ({
      refused: { code: 'completed_reply_no_longer_available', reason } as const,
    });
    if (
      receipt.connector_id !== connector.connector_id ||
      receipt.organization_id !== connector.organization_id
    )
      return gone('another connector');
    const binding = receiptBindingProblem(receipt, question);
    if (binding !== null)
      return { refused: { code: 'completed_reply_requires_regeneration', reason: binding } };
    const world = await this.worldProblem(receipt, connector, question);
    if (world !== null) return gone(world);
    const current = await this.retrieval.currentFreshness(receipt.references);
    if (current === null) return gone('a cited item is gone');
    return { receipt: { ...receipt, references: current } };
  }

  /** What no longer stands of what the receipt binds in the world, or null. */
  private async worldProblem(
    receipt: ReplyReceiptV2,
    connector: ConnectorPrincipal,
    question: string,
  ): Promise<string | null> {
    // A reply grounded under the standard policy is not replayed to a connector that now requires strict grounding.
    if (connector.grounding_policy === 'strict' && receipt.policy_versions.grounding_policy !== 'strict')
      return 'the connector now requires strict grounding';
    // A reply that used tools replays only while each tool is still granted, enabled and its run still valid.
    const tools = await this.tools.revalidateRuns(connector, receipt.reply_id, receipt.tool_evidence);
    if (tools !== null) return tools;
    const bound = await this.conversation.boundMessages(receipt.conversation_id, receipt.reply_id);
    const c = bound.conversation;
    if (
      !c ||
      c.organization_id !== receipt.organization_id ||
      c.connector_id !== receipt.connector_id ||
      c.chatbot_id !== receipt.chatbot_id ||
      c.external_thread_id !== receipt.external_thread_id
    )
      return 'the conversation does not match';
    // Spec §4.6 rule 5 / §8: the user message is the latest external message, nothing else of the thread.
    if (bound.user?.message_id !== receipt.user_message_id || bound.user.text !== question)
      return 'the user message does not match';
    if (
      bound.assistant?.message_id !== receipt.assistant_message_id ||
      bound.assistant.text !== receipt.final_text
    )
      return 'the assistant message does not match';
    const changed = await this.retrieval.changedSince(
      receipt.evidence_fingerprints.map((f) => ({
        memory_item_id: f.memory_item_id,
        revision: f.revision,
        content_sha256: f.content_sha256,
      })),
    );
    if (changed.length > 0) return `references changed: ${changed.join(', ')}`;
    if (receipt.grounding.trace_id !== receipt.memory_recall_trace_id)
      return 'the recall trace does not match';
    const unverified = await this.retrieval.unverifiedByTrace(
      receipt.memory_recall_trace_id,
      receipt,
      receipt.references,
    );
    if (unverified.length > 0) return `references not as in the recall trace: ${unverified.join(', ')}`;
    if (receipt.source_links.some((link) => unsafeLinkReason(link.url) !== null))
      return 'a link is no longer safe';
    // The link policy may have grown since: text that would now be withheld is not replayed as it was.
    const texts = [receipt.final_text, ...receipt.references.flatMap((r) => [r.excerpt, r.title])];
    if (texts.some((text) => withholdUnsafeLinks(text).withheld.length > 0))
      return 'a text link is no longer safe';
    return null;
  }
}
