import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { streams as streamNames } from '../events/domain-event';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
} from '../infrastructure/event-store/event-store.port';
import { verifyChain, type ChainBreak } from '../infrastructure/event-store/hash-chain';
import type { ReplyView } from '../projections/replies.projection';
import { GetReplyViewQuery } from '../queries/replies/reply-views.query';

export interface BoundStream {
  stream: string;
  /** Why it is bound to the reply. */
  role: string;
  /** Whether the whole stream's hash chain verified (events listed may be only those of this reply). */
  chain_verified: boolean;
  chain_break: ChainBreak | null;
  /** The stream's events that concern this reply, with their metadata (hash, prev_hash, occurred_at, actor…). */
  events: RecordedEvent[];
}

/**
 * `audit:reply ORG REPLY_ID`: every event of every stream bound to one reply, found from its receipt view so an
 * auditor needs no stream names: the request stream, the identity claims, the conversation's events of this reply,
 * the recall trace its evidence came from, its feedback, and its quota slot. Each stream's whole chain is verified.
 */
@Injectable()
export class ReplyAuditor {
  constructor(
    private readonly queries: QueryBus,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async reply(
    organizationId: number,
    replyId: number,
  ): Promise<{ reply: ReplyView; streams: BoundStream[] }> {
    const reply = await this.queries.execute<GetReplyViewQuery, ReplyView>(
      new GetReplyViewQuery(organizationId, { reply_id: replyId }),
    );
    const mine = (e: RecordedEvent) => e.data.reply_id === replyId;
    const bound: Array<[string, string, (e: RecordedEvent) => boolean]> = [
      [reply.request_stream, 'request', () => true],
      ...reply.claim_streams.map((s): [string, string, (e: RecordedEvent) => boolean] => [
        s,
        'identity claim',
        () => true,
      ]),
      ...(reply.conversation_id !== null
        ? [
            [streamNames.conversation(reply.conversation_id), 'conversation', mine] as [
              string,
              string,
              typeof mine,
            ],
          ]
        : []),
      ...(reply.trace_id !== null
        ? [
            [streamNames.recallTrace(reply.trace_id), 'recall trace', () => true] as [
              string,
              string,
              typeof mine,
            ],
          ]
        : []),
      ...reply.feedback.map((f): [string, string, typeof mine] => [f.stream, 'feedback', () => true]),
    ];
    const quota = await this.quotaStreams(organizationId, reply.requested_at);
    for (const stream of quota) bound.push([stream, 'quota', mine]);
    const out: BoundStream[] = [];
    for (const [stream, role, keep] of bound) {
      const history = await this.store.readStream(stream);
      const events = history.filter(keep);
      if (events.length === 0) continue;
      const chain_break = verifyChain(history);
      out.push({ stream, role, chain_verified: chain_break === null, chain_break, events });
    }
    return { reply, streams: out };
  }

  /** The quota streams of the month the reply was requested in and the next (an attempt may cross midnight). */
  private async quotaStreams(organizationId: number, requestedAt: string): Promise<string[]> {
    const at = new Date(requestedAt);
    const months = [0, 1].map((add) => {
      const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + add, 1));
      return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    });
    return months.map((period) => streamNames.replyQuota(organizationId, period));
  }
}
