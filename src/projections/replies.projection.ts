import type { ReplyFeedbackSubmitted } from '../events/replies/feedback.events';
import type { ReplyClaimEvent } from '../events/replies/reply-claim.events';
import type { ReplyRequestEvent } from '../events/replies/reply-request.events';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { erasedMemoryItem } from './erased-subjects';
import type { Projection, ProjectionContext } from './projection';

/** Receipt views: one document per reply request (by reply id), for operators and auditors. */
export const REPLIES = 'replies';
/** Which claim streams point at a request stream (by its digest), kept before and after the request is recorded. */
export const REPLY_CLAIMS = 'reply_claims';
/** Which replies cited a memory item (id: the item id): an erased item's quotes are dropped from their views. */
const REPLY_CITATIONS = 'reply_citations';

export interface ReplyFeedbackView {
  feedback_id: number;
  response_review_id: number;
  proposal_id: number | null;
  outcome: string | null;
  rating: string;
  stream: string;
  submitted_at: string;
}

export interface ReplyView {
  id: string;
  reply_id: number;
  organization_id: number;
  connector_id: number;
  chatbot_id: number;
  status: 'pending' | 'completed' | 'failed';
  attempt: number;
  /** The outcome code of a failed request (null otherwise). */
  outcome_code: string | null;
  retryable: boolean | null;
  external_thread_id: string;
  external_message_id: string | null;
  key_kind: string;
  request_stream: string;
  claim_streams: string[];
  conversation_id: number | null;
  message_id: number | null;
  trace_id: number | null;
  references: Array<{ reference_id: string; memory_item_id: number; revision: number }>;
  review: {
    reviewer_model: string;
    sufficient: boolean;
    answers_as_asked: boolean;
    claims: number;
    /** Per claim, in order: the spans of the cited evidence it states (what a client may show as "from: …"). */
    claim_quotes: Array<Array<{ reference_id: string; text: string }>>;
    review_input_sha256: string;
  } | null;
  receipt_version: number | null;
  receipt_hash: string | null;
  /** Token provenance: the token of the first request and of the attempt that completed it. */
  original_token_id: string;
  current_token_id: string | null;
  feedback: ReplyFeedbackView[];
  requested_at: string;
  updated_at: string;
  [key: string]: unknown;
}

interface ReplyCitationsDocument {
  id: string;
  reply_ids: number[];
  [key: string]: unknown;
}

interface ReplyClaimsDocument {
  id: string;
  reply_id: number | null;
  claim_streams: string[];
  [key: string]: unknown;
}

const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])].sort();

type ReceiptFields = {
  conversation_id?: number;
  assistant_message_id?: number;
  current_token_id?: string;
  receipt_hash?: string;
  version?: number;
  memory_recall_trace_id?: number;
  references?: Array<{ reference_id: string; memory_item_id: number; revision: number }>;
  review_ledger?: Array<{
    model: string;
    sufficient: boolean;
    answers_as_asked: boolean;
    claims: unknown[];
    bound_claims?: Array<{ quotes?: Array<{ reference_id: string; text: string }> }>;
    review_input_sha256: string;
  }>;
};

/** Replies and their feedback as one view per reply (rebuilt identically from the streams). */
export const repliesProjection: Projection = {
  name: 'replies',
  version: 3,
  collections: [
    { name: REPLIES, indexes: ['organization_id', 'message_id', 'status'] },
    { name: REPLY_CLAIMS, indexes: [] },
    { name: REPLY_CITATIONS, indexes: [] },
  ],
  eventTypes: new Set<string>([
    'ReplyIdentityClaimed',
    'ReplyIdentityRedirected',
    'ReplyRequested',
    'ReplyRequestReclaimed',
    'ReplyCompleted',
    'ReplyFailed',
    'ReplyFeedbackSubmitted',
    'SubjectErased',
  ]),
  async apply(recorded: RecordedEvent, context: ProjectionContext) {
    const at = recorded.metadata.occurred_at;
    if (recorded.type === 'SubjectErased') {
      const erased = erasedMemoryItem(recorded);
      if (erased) await forgetCitations(context, erased.memory_item_id, at);
      return;
    }
    const event = recorded as unknown as ReplyRequestEvent | ReplyClaimEvent | ReplyFeedbackSubmitted;
    if (event.type === 'ReplyIdentityClaimed' || event.type === 'ReplyIdentityRedirected') {
      await claim(context, recorded.stream, event.data.request_digest);
      return;
    }
    if (event.type === 'ReplyRequested') {
      const d = event.data;
      const claims = await context.get<ReplyClaimsDocument>(REPLY_CLAIMS, d.identity_digest);
      context.put(REPLY_CLAIMS, {
        id: d.identity_digest,
        reply_id: d.reply_id,
        claim_streams: claims?.claim_streams ?? [],
      });
      const view: ReplyView = {
        id: String(d.reply_id),
        reply_id: d.reply_id,
        organization_id: d.organization_id,
        connector_id: d.connector_id,
        chatbot_id: d.chatbot_id,
        status: 'pending',
        attempt: 1,
        outcome_code: null,
        retryable: null,
        external_thread_id: d.external_thread_id,
        external_message_id: d.external_message_id,
        key_kind: d.key_kind,
        request_stream: recorded.stream,
        claim_streams: claims?.claim_streams ?? [],
        conversation_id: null,
        message_id: null,
        trace_id: null,
        references: [],
        review: null,
        receipt_version: null,
        receipt_hash: null,
        original_token_id: d.token_id,
        current_token_id: null,
        feedback: [],
        requested_at: d.requested_at,
        updated_at: at,
      };
      context.put(REPLIES, view);
      return;
    }
    const view = await context.get<ReplyView>(REPLIES, String(event.data.reply_id));
    if (!view) return;
    switch (event.type) {
      case 'ReplyRequestReclaimed':
        context.put(REPLIES, { ...view, status: 'pending', attempt: event.data.attempt, updated_at: at });
        return;
      case 'ReplyFailed':
        context.put(REPLIES, {
          ...view,
          status: 'failed',
          outcome_code: event.data.outcome.code,
          retryable: event.data.outcome.retryable,
          updated_at: at,
        });
        return;
      case 'ReplyCompleted': {
        // An erased receipt (its conversation's or a cited item's key destroyed) reads as null.
        const r = (event.data.receipt ?? {}) as ReceiptFields;
        await recordCitations(context, event.data.reply_id, r.references ?? []);
        const review = r.review_ledger?.at(-1);
        context.put(REPLIES, {
          ...view,
          status: 'completed',
          outcome_code: null,
          retryable: null,
          conversation_id: r.conversation_id ?? null,
          message_id: r.assistant_message_id ?? null,
          trace_id: r.memory_recall_trace_id ?? null,
          references: (r.references ?? []).map(({ reference_id, memory_item_id, revision }) => ({
            reference_id,
            memory_item_id,
            revision,
          })),
          review: review
            ? {
                reviewer_model: review.model,
                sufficient: review.sufficient,
                answers_as_asked: review.answers_as_asked,
                claims: review.claims.length,
                claim_quotes: (review.bound_claims ?? []).map((c) =>
                  (c.quotes ?? []).map(({ reference_id, text }) => ({ reference_id, text })),
                ),
                review_input_sha256: review.review_input_sha256,
              }
            : null,
          receipt_version: r.version ?? null,
          receipt_hash: r.receipt_hash ?? null,
          current_token_id: r.current_token_id ?? null,
          updated_at: at,
        });
        return;
      }
      case 'ReplyFeedbackSubmitted': {
        const d = event.data;
        const feedback: ReplyFeedbackView = {
          feedback_id: d.feedback_id,
          response_review_id: d.response_review_id,
          proposal_id: d.proposal_id,
          outcome: d.outcome,
          rating: d.rating,
          stream: recorded.stream,
          submitted_at: d.submitted_at,
        };
        const others = view.feedback.filter((f) => f.feedback_id !== d.feedback_id);
        context.put(REPLIES, { ...view, feedback: [...others, feedback], updated_at: at });
        return;
      }
    }
  },
};

/** Records that a claim stream points at a request digest (and on its view, once the request is recorded). */
async function recordCitations(
  context: ProjectionContext,
  replyId: number,
  references: ReadonlyArray<{ memory_item_id: number }>,
): Promise<void> {
  for (const itemId of new Set(references.map((r) => r.memory_item_id))) {
    const cited = await context.get<ReplyCitationsDocument>(REPLY_CITATIONS, String(itemId));
    const reply_ids = [...new Set([...(cited?.reply_ids ?? []), replyId])];
    context.put(REPLY_CITATIONS, { id: String(itemId), reply_ids });
  }
}

/** The views of replies that cited an erased item keep no quote of any evidence (their receipts are unreadable). */
async function forgetCitations(context: ProjectionContext, itemId: number, at: string): Promise<void> {
  const cited = await context.get<ReplyCitationsDocument>(REPLY_CITATIONS, String(itemId));
  for (const replyId of cited?.reply_ids ?? []) {
    const view = await context.get<ReplyView>(REPLIES, String(replyId));
    if (view?.review)
      context.put(REPLIES, { ...view, review: { ...view.review, claim_quotes: [] }, updated_at: at });
  }
  context.delete(REPLY_CITATIONS, String(itemId));
}

async function claim(context: ProjectionContext, stream: string, requestDigest: string): Promise<void> {
  const claims = await context.get<ReplyClaimsDocument>(REPLY_CLAIMS, requestDigest);
  const claim_streams = union(claims?.claim_streams ?? [], [stream]);
  context.put(REPLY_CLAIMS, { id: requestDigest, reply_id: claims?.reply_id ?? null, claim_streams });
  if (claims?.reply_id === null || claims?.reply_id === undefined) return;
  const view = await context.get<ReplyView>(REPLIES, String(claims.reply_id));
  if (view) context.put(REPLIES, { ...view, claim_streams });
}
