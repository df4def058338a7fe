/**
 * The review ledger of a reply (spec §9.3): every semantic review of the run, in order, the rejected ones included,
 * and what a receipt derives from it: the reviewer confirmations and the final review input binding. The same
 * functions build the receipt and re-check it on replay, so both read the ledger the same way. Pure.
 */
import type { AnswerMode, DraftClaim, ReviewInput, ReviewOutput } from '../../ai/reply-model-contract';
import { assembleAnswer } from '../../grounding/answer-text';
import { claimKey, type BoundVerdict } from '../../grounding/review-binding';
import { canonicalDigest } from '../shared/canonical-digest';
import type {
  ReceiptFinalReviewInput,
  ReceiptReviewEntry,
  ReceiptReviewerConfirmations,
} from './reply-receipt';

/**
 * Reviews per reply at most: when the reviewer finds a claim unsupported, the composer drafts once more without it;
 * a second rejection is final (`semantic_review_failed`).
 */
export const MAX_REVIEW_ATTEMPTS = 2;

/** One ledger entry: the review of one draft, bound one for one to its claims. */
export function ledgerEntry(args: {
  attempt: number;
  outcome: 'approved' | 'rejected';
  model: string;
  review_input_sha256: string;
  review: ReviewOutput;
  verdicts: BoundVerdict[];
}): ReceiptReviewEntry {
  const { review } = args;
  return {
    attempt: args.attempt,
    outcome: args.outcome,
    model: args.model,
    review_input_sha256: args.review_input_sha256,
    sufficient: review.sufficient,
    answers_as_asked: review.answers_as_asked,
    claims: review.claims,
    bound_claims: args.verdicts,
    conflicts: review.conflicts,
    reason: review.reason || null,
  };
}

/** SHA-256 over the canonical JSON of the whole ledger (every attempt). */
export function ledgerDigest(ledger: readonly ReceiptReviewEntry[]): string {
  return canonicalDigest(ledger);
}

/** The claims as the final review input binds them: text and citations (quotes are bound in `bound_claims`). */
const claimsOf = (
  claims: ReadonlyArray<{ text: string; reference_ids: string[] }>,
): Array<Pick<DraftClaim, 'text' | 'reference_ids'>> =>
  claims.map((c) => ({ text: c.text, reference_ids: [...c.reference_ids] }));

/** The final review input by parts: what a replay re-derives from the user message, the reply and the ledger. */
export function finalReviewInputOf(input: ReviewInput): ReceiptFinalReviewInput {
  return {
    question_sha256: canonicalDigest(input.question),
    answer_sha256: canonicalDigest(input.answer),
    claims_sha256: canonicalDigest(claimsOf(input.claims)),
    evidence_ids: input.evidence.map((e) => e.reference_id),
  };
}

/**
 * The reviewer confirmations of a reply, derived from its approving ledger entry (never assumed): each is true only
 * when the reviewer's bound verdicts say so. `within`: the ids the reply could cite (its references and tool runs);
 * `figuresChecked`: whether Cairn's own claim checks passed on the final draft.
 */
export function confirmationsFrom(
  entry: ReceiptReviewEntry,
  reply: { final_text: string; answer_mode: string; within: ReadonlySet<string>; figuresChecked: boolean },
): ReceiptReviewerConfirmations {
  const bound = entry.bound_claims ?? [];
  const cited = bound.flatMap((b) => b.reference_ids);
  return {
    sufficient: entry.sufficient,
    answers_as_asked: entry.answers_as_asked,
    all_claims_supported: bound.length > 0 && bound.every((b) => b.supported && b.confirmed_by.length > 0),
    citations_within_evidence: cited.length > 0 && cited.every((id) => reply.within.has(id)),
    review_bound_to_claims:
      bound.length > 0 &&
      bound.length === entry.claims.length &&
      bound.every(
        (b, i) =>
          claimKey(b.text) === claimKey(entry.claims[i].text) &&
          b.confirmed_by.every((id) => b.reference_ids.includes(id)),
      ),
    claim_figures_in_cited_evidence: reply.figuresChecked,
    answer_is_claims:
      bound.length > 0 && assembleAnswer(bound, reply.answer_mode as AnswerMode) === reply.final_text,
    confirmed_claims: bound.map((b) => ({
      text: b.text,
      reference_ids: [...b.reference_ids],
      confirmed_by: [...b.confirmed_by],
    })),
  };
}

/** The claims the final review was given, as drafted (text and cited ids), from the ledger's last entry. */
export function finalClaimsOf(entry: ReceiptReviewEntry): Array<Pick<DraftClaim, 'text' | 'reference_ids'>> {
  return claimsOf(entry.bound_claims ?? []);
}
