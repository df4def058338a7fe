import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { ConflictError } from '../../common/errors';
import { streams } from '../../events/domain-event';
import type { FeedbackClaimEvent } from '../../events/replies/feedback-claim.events';
import type { FeedbackKeyKind } from '../../events/replies/feedback.events';
import type { CommandContext } from '../shared/command-context';
import { identityClaimDecider, IdentityClaimWriter } from '../shared/identity-claim';
import { StreamCommandExecutor, type Loaded } from '../shared/stream-command-executor';
import { feedbackDecider, type FeedbackState } from './feedback.decider';
import type { FeedbackIdentity } from './feedback-rules';

/** Scope of a feedback's identities (spec §4.7 rule 3). */
export type FeedbackScope = { organization_id: number; connector_id: number; message_id: number };

/** The feedback a set of identities belongs to. */
export interface ResolvedFeedbackStream {
  /** Names the feedback stream (`reply-feedback-{digest}`). */
  digest: string;
  /** Which of the caller's keys matched an earlier feedback (null: a new feedback). */
  matchedBy: FeedbackKeyKind | null;
  /** The feedback stream as read while resolving. */
  loaded: Loaded<FeedbackState>;
}

const FEEDBACK_CLAIM_CONFLICT = 'feedback_identity_claimed';
const MAX_ROUNDS = 5;
const MAX_MOVES = 4;

export const feedbackClaimDecider = identityClaimDecider<FeedbackClaimEvent>({
  conflictCode: FEEDBACK_CLAIM_CONFLICT,
  targetOf: (event) => event.data.feedback_digest,
});

/** A feedback stream holds a feedback once reserved (or recorded, for feedback from before reservations). */
export const isTaken = (state: FeedbackState): boolean => state.reserved !== null || state.submitted !== null;

/** The request's external_feedback_id a stored feedback was recorded with (null when it had none). */
function storedFeedbackId(state: FeedbackState): string | null {
  if (state.reserved) return state.reserved.external_feedback_id;
  const submitted = state.submitted;
  return submitted?.retry_key_kind === 'external_feedback_id' ? submitted.retry_key : null;
}

type Target = { claimed: string | null; digest: string; loaded: Loaded<FeedbackState> } | null;

/**
 * Spec §4.7 rule 3 with the reply identity machinery (shared/identity-claim.ts): an external_feedback_id and an
 * idempotency_key EACH identify a feedback on one assistant message, across processes, without a multi-stream
 * transaction. Each identity has a claim stream (`reply-feedback-claim-{digest}`) whose first event names the
 * feedback stream it belongs to (first append with expected revision "no stream" wins).
 *
 * Resolution, in rounds until stable:
 * 1. each identity's target: its claim, else (feedback recorded before claims existed) its own stream if that holds
 *    a feedback; a stream that was moved is followed to where it moved;
 * 2. two targets that both hold a feedback: 409 `feedback_key_reused` naming idempotency_key (it belongs to another
 *    feedback). Otherwise the one holding a feedback is chosen (else the primary's target, else a new stream named by
 *    the primary identity); an idempotency key matching a feedback with another external_feedback_id is 409 too;
 *    other content is refused by the caller's `accept`; both before anything is written;
 * 3. every other target (claimed but never reserved: its claimant lost a race or crashed) is moved to the chosen
 *    stream (`ReplyFeedbackMoved`, expected revision "no stream", so it cannot race a reservation there);
 * 4. unclaimed identities are claimed for the chosen stream, primary first; losing a claim or a move starts the next
 *    round, which then finds the winner.
 */
@Injectable()
export class FeedbackClaims {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly writer: IdentityClaimWriter,
    private readonly clock: Clock,
  ) {}

  async resolve(
    identities: readonly FeedbackIdentity[],
    scope: FeedbackScope,
    externalFeedbackId: string | null,
    context: CommandContext,
    /** Throws (a 409) when the feedback found cannot be this one (changed content): runs before any write. */
    accept: (state: FeedbackState, matchedBy: FeedbackKeyKind | null) => void,
  ): Promise<ResolvedFeedbackStream> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const targets = await Promise.all(identities.map((identity) => this.target(identity)));
      const known = new Map<string, Loaded<FeedbackState>>();
      for (const t of targets) if (t) known.set(t.digest, t.loaded);
      const taken = [...known].filter(([, loaded]) => isTaken(loaded.state));
      if (taken.length > 1) {
        throw new ConflictError(
          'feedback_key_reused',
          'this idempotency_key already belongs to another feedback on this message',
          [{ field: 'idempotency_key', message: 'belongs to another feedback' }],
        );
      }
      const [digest, loaded] = taken[0] ??
        [...known][0] ?? [identities[0].digest, await this.load(identities[0].digest)];
      const matchedAt = targets.findIndex((t) => t?.digest === digest);
      const matchedBy = matchedAt < 0 ? null : identities[matchedAt].key_kind;
      const storedId = storedFeedbackId(loaded.state);
      if (
        matchedBy === 'idempotency_key' &&
        externalFeedbackId !== null &&
        storedId !== null &&
        storedId !== externalFeedbackId
      ) {
        throw new ConflictError(
          'feedback_key_reused',
          'this idempotency_key was already used for feedback with another external_feedback_id',
          [{ field: 'idempotency_key', message: 'reused with another external_feedback_id' }],
        );
      }
      accept(loaded.state, matchedBy);
      if (await this.settle(identities, targets, digest, scope, context))
        return { digest, matchedBy, loaded };
    }
    throw new ConflictError('feedback_pending', 'a matching feedback is being recorded; retry later');
  }

  /** Moves the other targets to `digest` and claims the unclaimed identities for it; false if a write was lost. */
  private async settle(
    identities: readonly FeedbackIdentity[],
    targets: readonly Target[],
    digest: string,
    scope: FeedbackScope,
    context: CommandContext,
  ): Promise<boolean> {
    const organizationId = scope.organization_id;
    for (const other of new Set(targets.map((t) => t?.digest).filter((d) => d && d !== digest))) {
      const moved = await this.executor.execute(
        streams.replyFeedback(other as string),
        feedbackDecider,
        { type: 'MoveFeedback', organization_id: organizationId, to: digest, now_ms: this.clock.nowMs() },
        context,
        { organizationId, waitFor: [], durability: 'committed' },
      );
      if (moved.state.moved_to !== digest) return false;
    }
    for (const [i, identity] of identities.entries()) {
      if (targets[i]?.claimed) continue;
      const data = {
        ...scope,
        key_kind: identity.key_kind,
        key: identity.key,
        feedback_digest: digest,
        claimed_at: this.clock.nowIso(),
      };
      const won = await this.writer.decide(
        streams.feedbackClaim(identity.digest),
        feedbackClaimDecider,
        { type: 'Claim', target: digest, event: { type: 'FeedbackIdentityClaimed', data } },
        FEEDBACK_CLAIM_CONFLICT,
        organizationId,
        context,
      );
      if (!won) return false;
    }
    return true;
  }

  /** Where an identity points now (following moves), or null when it names no feedback yet. */
  private async target(identity: FeedbackIdentity): Promise<Target> {
    const claim = await this.executor.load(streams.feedbackClaim(identity.digest), feedbackClaimDecider);
    const claimed = claim.state.target;
    let digest = claimed ?? identity.digest;
    let loaded = await this.load(digest);
    if (claimed === null && !isTaken(loaded.state) && loaded.state.moved_to === null) return null;
    for (let hop = 0; hop < MAX_MOVES && loaded.state.moved_to !== null; hop++) {
      digest = loaded.state.moved_to;
      loaded = await this.load(digest);
    }
    return { claimed, digest, loaded };
  }

  private load(digest: string): Promise<Loaded<FeedbackState>> {
    return this.executor.load(streams.replyFeedback(digest), feedbackDecider);
  }
}
