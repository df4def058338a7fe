import { QueryBus } from '@nestjs/cqrs';
import { feedbackFingerprint, feedbackIdentity } from '../../src/commands/replies/feedback-rules';
import { systemContext } from '../../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import { IdGenerator } from '../../src/common/id-generator';
import { streams } from '../../src/events/domain-event';
import type { FeedbackKeyKind } from '../../src/events/replies/feedback.events';
import { ListProposalsQuery } from '../../src/queries/memory/list-proposals.query';
import type { FeedbackHarness, Seeded } from './feedback-harness';

/** Feedback identity tests: counting what was stored, and writing what a crashed or racing process left. */

export const CORRECTED = { outcome: 'corrected', suggested_answer: 'We open at 10 on Saturdays.' };
const context = systemContext('test');

/** The correction proposals captured for an assistant message. */
export async function proposalsFor(h: FeedbackHarness, message_id: number): Promise<number[]> {
  const all = await h.t.app
    .get(QueryBus)
    .execute<ListProposalsQuery, Array<{ proposal_id: number; correction: { message_id: number } | null }>>(
      new ListProposalsQuery(h.org, null),
    );
  return all.filter((p) => p.correction?.message_id === message_id).map((p) => p.proposal_id);
}

/** How many ReplyFeedbackSubmitted events the store holds for an assistant message. */
export async function submittedFor(h: FeedbackHarness, message_id: number): Promise<number> {
  const events = await h.t.stores.eventStore.readAll();
  return events.filter((e) => e.type === 'ReplyFeedbackSubmitted' && e.data.message_id === message_id).length;
}

export function keyIdentity(
  h: FeedbackHarness,
  message_id: number,
  keys: { external_feedback_id?: string; idempotency_key?: string },
) {
  return feedbackIdentity({ organization_id: h.org, connector_id: h.connectorId, message_id, ...keys });
}

/** Appends the claim of one key (as a submission that then crashed, or raced, would have). */
export async function appendClaim(
  h: FeedbackHarness,
  message_id: number,
  key_kind: FeedbackKeyKind,
  key: string,
  feedback_digest: string,
): Promise<void> {
  const digest = keyIdentity(h, message_id, { [key_kind]: key }).digest;
  const data = {
    organization_id: h.org,
    connector_id: h.connectorId,
    message_id,
    key_kind,
    key,
    feedback_digest,
    claimed_at: new Date().toISOString(),
  };
  await h.t.app
    .get(StreamCommandExecutor)
    .append(
      streams.feedbackClaim(digest),
      [{ type: 'FeedbackIdentityClaimed', data }],
      'no_stream',
      context,
      h.org,
    );
}

/** Appends a reservation of a CORRECTED feedback under external_feedback_id `key` on `digest`; returns its ids. */
export async function appendReservation(h: FeedbackHarness, seeded: Seeded, key: string, digest: string) {
  const ids = h.t.app.get(IdGenerator);
  const reserved = {
    feedback_id: await ids.next('reply_feedback'),
    response_review_id: await ids.next('response_review'),
    proposal_id: await ids.next('memory_proposal'),
    memory_source_id: await ids.next('memory_source'),
  };
  const content = {
    outcome: 'corrected' as const,
    rating: 'down' as const,
    feedback_kind: null,
    feedback_issue: null,
    suggested_answer: CORRECTED.suggested_answer,
    note: null,
  };
  const data = {
    ...reserved,
    ...content,
    organization_id: h.org,
    connector_id: h.connectorId,
    message_id: seeded.message_id,
    reply_id: seeded.reply_id,
    conversation_id: seeded.conversation_id,
    retry_key_kind: 'external_feedback_id',
    retry_key: key,
    external_feedback_id: key,
    fingerprint: feedbackFingerprint(content),
    reserved_at: new Date().toISOString(),
  };
  await h.t.app
    .get(StreamCommandExecutor)
    .append(
      streams.replyFeedback(digest),
      [{ type: 'ReplyFeedbackReserved', data }],
      'no_stream',
      context,
      h.org,
    );
  return reserved;
}
