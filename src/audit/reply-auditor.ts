import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  EVENT_STORE,
  SEALED_EVENT_STORE,
  type EventStore,
  type RecordedEvent,
} from '../infrastructure/event-store/event-store.port';
import { verifyChain, type ChainBreak } from '../infrastructure/event-store/hash-chain';
import type { ReplyView } from '../projections/replies.projection';
import { GetReplyViewQuery } from '../queries/replies/reply-views.query';
import {
  citedRevision,
  feedbackBindings,
  quotaBindings,
  requestBindings,
  type Binding,
  type BindingRole,
  type CitedRevision,
} from './reply-bindings';

export interface BoundStream {
  stream: string;
  /** Why it is bound to the reply. */
  role: BindingRole;
  /** Whether the whole stream's hash chain verified (events listed may be only those of this reply). */
  chain_verified: boolean;
  chain_break: ChainBreak | null;
  /** A stream the reply's records name that reads empty (deleted), or a cited revision the item lacks. */
  missing: boolean;
  /** Why it is missing: the stream reads empty, or the cited item revision is not in it (null: not missing). */
  missing_reason: 'stream_missing' | 'cited_revision_missing' | null;
  /** A cited memory item: the revision the reply cited, where it is in the stream, and where the item is now. */
  cited?: CitedRevision;
  /** The stream's events that concern this reply, with their metadata (hash, prev_hash, occurred_at, actor…). */
  events: RecordedEvent[];
}

export interface ReplyAudit {
  reply: ReplyView;
  /** Every bound stream exists, its chain verifies, and every cited revision is in its item's stream. */
  verified: boolean;
  streams: BoundStream[];
}

/**
 * `audit:reply ORG REPLY_ID`: every stream that bears on one reply, found from its receipt view and its request
 * stream's events so an auditor needs no stream names (reply-bindings.ts): the request, its identity claims, the
 * thread binding, the conversation's events of this reply, the recall trace, the tool runs, the feedback (and its
 * claim streams), the correction proposals the feedback created, each cited memory item (the cited revision marked)
 * and the quota slot. Each stream's whole chain is verified.
 */
@Injectable()
export class ReplyAuditor {
  constructor(
    private readonly queries: QueryBus,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SEALED_EVENT_STORE) private readonly stored: EventStore,
  ) {}

  async reply(organizationId: number, replyId: number): Promise<ReplyAudit> {
    const reply = await this.queries.execute<GetReplyViewQuery, ReplyView>(
      new GetReplyViewQuery(organizationId, { reply_id: replyId }),
    );
    const read = new Map<string, RecordedEvent[]>();
    const history = async (stream: string) => {
      if (!read.has(stream)) read.set(stream, await this.store.readStream(stream));
      return read.get(stream) as RecordedEvent[];
    };
    const requestEvents = await history(reply.request_stream);
    for (const feedback of reply.feedback) await history(feedback.stream);
    const bindings: Binding[] = [
      { stream: reply.request_stream, role: 'request', keep: () => true, required: true },
      ...reply.claim_streams.map((stream): Binding => ({
        stream,
        role: 'identity claim',
        keep: () => true,
        required: true,
      })),
      ...requestBindings(reply, requestEvents),
      ...feedbackBindings(reply, (stream) => read.get(stream) ?? []),
      ...quotaBindings(reply),
    ];
    const streams: BoundStream[] = [];
    for (const binding of bindings) {
      const events = await history(binding.stream);
      if (events.length === 0 && !binding.required) continue;
      const kept = events.filter(binding.keep);
      if (kept.length === 0 && !binding.required) continue;
      // The chain covers the events as stored (sealed fields as ciphertext); bindings read them opened.
      const chain_break = verifyChain(await this.stored.readStream(binding.stream));
      const cited = binding.cited ? citedRevision(binding.cited, events) : undefined;
      const missing_reason =
        events.length === 0
          ? 'stream_missing'
          : cited !== undefined && cited.cited_event_revision === null
            ? 'cited_revision_missing'
            : null;
      streams.push({
        stream: binding.stream,
        role: binding.role,
        chain_verified: chain_break === null,
        chain_break,
        missing: missing_reason !== null,
        missing_reason,
        ...(cited ? { cited } : {}),
        events: kept,
      });
    }
    const verified = streams.every((s) => s.chain_verified && !s.missing);
    return { reply, verified, streams };
  }
}
