import { ValidationFailedError } from '../../common/errors';
import type { FeedbackKeyKind, FeedbackOutcome, FeedbackRating } from '../../events/replies/feedback.events';
import { canonicalDigest, firstRetryKey } from '../shared/canonical-digest';

/**
 * Feedback rules (spec §4.7), pure: how outcome and rating resolve, WHO submits again (the retry identity, which
 * names the stream) and WHAT they submit (the fingerprint, which must match for a replay).
 */

/** The rating an outcome implies: accepted ↔ up, corrected and rejected ↔ down. */
export const RATING_OF_OUTCOME: Readonly<Record<FeedbackOutcome, FeedbackRating>> = {
  accepted: 'up',
  corrected: 'down',
  rejected: 'down',
};

export type FeedbackChoice = {
  outcome?: FeedbackOutcome | null;
  rating?: FeedbackRating | null;
  suggested_answer?: string | null;
};

export type ResolvedFeedback = { outcome: FeedbackOutcome | null; rating: FeedbackRating };

/** A suggested answer is "useful" when it has at least one non-space character. */
export function hasText(value: string | null | undefined): value is string {
  return typeof value === 'string' && /\S/.test(value);
}

/**
 * Resolves outcome and rating (spec §4.7 rules 1-2):
 *
 * - rating only (older clients): `up` → accepted; `down` with a non-blank suggested_answer → corrected; `down`
 *   without one → rejected; `none` → outcome null (it clears the outcome).
 * - outcome only: the rating is derived from it (accepted → up, corrected and rejected → down).
 * - both: they must agree (accepted ↔ up, corrected ↔ down, rejected ↔ down; `none` agrees with no outcome, so
 *   any outcome with `none` disagrees) → otherwise 422. An explicit outcome is kept as sent: `rejected` + `down`
 *   stays rejected even with a suggested_answer.
 * - neither → 422.
 * - `corrected` (sent or derived) requires a non-blank suggested_answer → otherwise 422 naming suggested_answer.
 */
export function resolveFeedback(choice: FeedbackChoice): ResolvedFeedback {
  const outcome = choice.outcome ?? null;
  const rating = choice.rating ?? null;
  let resolved: ResolvedFeedback;
  if (outcome !== null) {
    if (rating !== null && RATING_OF_OUTCOME[outcome] !== rating) {
      throw new ValidationFailedError('outcome and rating disagree', [
        { field: 'outcome', message: `outcome ${outcome} requires rating ${RATING_OF_OUTCOME[outcome]}` },
        { field: 'rating', message: `rating ${rating} does not agree with outcome ${outcome}` },
      ]);
    }
    resolved = { outcome, rating: RATING_OF_OUTCOME[outcome] };
  } else if (rating !== null) {
    resolved = { outcome: outcomeOfRating(rating, choice.suggested_answer), rating };
  } else {
    throw new ValidationFailedError('send outcome or rating', [
      { field: 'outcome', message: 'send outcome (accepted, corrected, rejected) or rating' },
      { field: 'rating', message: 'send rating (up, down, none) or outcome' },
    ]);
  }
  if (resolved.outcome === 'corrected' && !hasText(choice.suggested_answer)) {
    throw new ValidationFailedError('outcome corrected requires suggested_answer', [
      { field: 'suggested_answer', message: 'required (non-blank) when outcome is corrected' },
    ]);
  }
  return resolved;
}

function outcomeOfRating(
  rating: FeedbackRating,
  suggested_answer: string | null | undefined,
): FeedbackOutcome | null {
  if (rating === 'up') return 'accepted';
  if (rating === 'down') return hasText(suggested_answer) ? 'corrected' : 'rejected';
  return null;
}

export type FeedbackIdentityInput = {
  organization_id: number;
  connector_id: number;
  message_id: number;
  external_feedback_id?: string | null;
  idempotency_key?: string | null;
};

export type FeedbackIdentity = {
  key_kind: FeedbackKeyKind;
  key: string;
  /** SHA-256 (hex) of the canonical JSON of the identity tuple; `streams.replyFeedback(digest)`. */
  digest: string;
};

/**
 * The retry identity of a feedback submission (spec §4.7 rule 3): (organization, connector, message, key kind,
 * key), hashed as canonical JSON (RFC 8785).
 *
 * - `external_feedback_id` takes precedence when both are sent: it is the caller's own id of the feedback, stable
 *   across its retries, and names a new feedback's stream. The idempotency key identifies the feedback too
 *   (feedbackIdentities).
 * - The key kind is part of the tuple, so the same text as an external_feedback_id and as an idempotency_key never
 *   names the same submission.
 * - An empty string counts as absent. Neither → 422.
 */
export function feedbackIdentity(input: FeedbackIdentityInput): FeedbackIdentity {
  const chosen = firstRetryKey<FeedbackKeyKind>([
    ['external_feedback_id', input.external_feedback_id],
    ['idempotency_key', input.idempotency_key],
  ]);
  if (chosen === null) {
    throw new ValidationFailedError('external_feedback_id or idempotency_key is required', [
      { field: 'external_feedback_id', message: 'send external_feedback_id or idempotency_key' },
      { field: 'idempotency_key', message: 'send external_feedback_id or idempotency_key' },
    ]);
  }
  const { organization_id, connector_id, message_id } = input;
  const { key_kind, key } = chosen;
  const digest = canonicalDigest({ organization_id, connector_id, message_id, key_kind, key });
  return { key_kind, key, digest };
}

/**
 * Every identity a submission carries, the primary first (external_feedback_id when both are sent): a submission
 * matching an earlier one by EITHER key is that feedback. Each names a claim stream (streams.feedbackClaim); the
 * primary also names a new feedback's stream. Neither key → 422.
 */
export function feedbackIdentities(input: FeedbackIdentityInput): FeedbackIdentity[] {
  const primary = feedbackIdentity(input);
  if (primary.key_kind === 'idempotency_key' || !input.idempotency_key) return [primary];
  return [primary, feedbackIdentity({ ...input, external_feedback_id: null })];
}

/** The submitted content the fingerprint covers. Absent optional fields are null (never undefined). */
export type FeedbackContent = ResolvedFeedback & {
  feedback_kind: string | null;
  feedback_issue: string | null;
  suggested_answer: string | null;
  note: string | null;
};

/**
 * SHA-256 (hex) of the canonical JSON of the submitted content. The RESOLVED outcome and rating are covered, not
 * the raw fields, so `{rating: "up"}` and `{outcome: "accepted"}` are the same submission. The retry keys are NOT
 * content: they say which feedback this is, so the same feedback sent under another key, or under one of its keys
 * alone, is a replay (as for reply requests).
 */
export function feedbackFingerprint(content: FeedbackContent): string {
  return canonicalDigest({ version: 2, ...normalized(content) });
}

/** The fingerprint feedback recorded before version 2 carries (both retry keys included), to recognize it. */
export function legacyFeedbackFingerprint(
  content: FeedbackContent & { external_feedback_id: string | null; idempotency_key: string | null },
): string {
  return canonicalDigest({
    ...normalized(content),
    external_feedback_id: content.external_feedback_id ?? null,
    idempotency_key: content.idempotency_key ?? null,
  });
}

function normalized(content: FeedbackContent): FeedbackContent {
  return {
    outcome: content.outcome,
    rating: content.rating,
    feedback_kind: content.feedback_kind ?? null,
    feedback_issue: content.feedback_issue ?? null,
    suggested_answer: content.suggested_answer ?? null,
    note: content.note ?? null,
  };
}

/**
 * The fingerprints feedback recorded before version 2 may carry for `content`: both retry keys were covered, and it
 * stored only its primary key, so the other is the caller's idempotency key, or none.
 */
export function legacyFingerprints(
  content: FeedbackContent,
  stored: { retry_key_kind: FeedbackKeyKind; retry_key: string },
  callerIdempotencyKey: string | null,
): string[] {
  const primary = {
    external_feedback_id: null,
    idempotency_key: null,
    [stored.retry_key_kind]: stored.retry_key,
  };
  return [callerIdempotencyKey, null].map((key) =>
    legacyFeedbackFingerprint({ ...content, ...primary, idempotency_key: primary.idempotency_key ?? key }),
  );
}

/**
 * Whether an erasure took a stored feedback's text: its text fields read as erased (null) and no longer give the
 * fingerprint it was recorded with (version 2 or legacy). Such feedback is answered as recorded whatever a retry
 * sends: comparing the retry with the erased text would confirm a guess of it.
 */
export function storedTextErased(
  stored: FeedbackContent & { fingerprint: string; retry_key_kind: FeedbackKeyKind; retry_key: string },
  callerIdempotencyKey: string | null,
): boolean {
  if (stored.suggested_answer !== null || stored.note !== null || stored.feedback_issue !== null)
    return false;
  const recorded = [feedbackFingerprint(stored), ...legacyFingerprints(stored, stored, callerIdempotencyKey)];
  return !recorded.includes(stored.fingerprint);
}
