/**
 * Binding the independent review to the draft (ARCHITECTURE invariant 3: the reviewer confirms exactly the drafted
 * claims, one for one, never a count). Pure.
 *
 * The review is bound when:
 * - it returns as many claims as were drafted, and claim i has the normalized text of drafted claim i (Unicode
 *   NFKC, case, whitespace and trailing punctuation ignored; nothing else: a re-worded, split, merged, dropped,
 *   reordered or extra claim breaks the binding);
 * - each claim's `reference_ids` are among the ids that drafted claim cites (the reviewer may confirm a claim from
 *   fewer of its references, never from one it did not cite, nor one outside the cited set), and contain every
 *   reference the claim quotes (a confirmation from a subset without the claim's quotes confirms something else);
 * - each conflict names a cited reference and another reference the reviewer was given.
 * Otherwise the review is not about this draft: `unbound` with the first mismatch.
 */
import type { ClaimQuote, DraftClaim, ReviewConflict, ReviewOutput } from '../ai/reply-model-contract';

export interface BoundVerdict {
  /** The drafted claim, as it leaves the service. */
  text: string;
  /** What the draft cited for it. */
  reference_ids: string[];
  /** The spans of the cited evidence it states, verified verbatim (claim-quotes.ts). */
  quotes: ClaimQuote[];
  /** The references the reviewer confirmed it from (a subset of reference_ids). */
  confirmed_by: string[];
  supported: boolean;
}

export type ReviewBinding =
  { bound: true; verdicts: BoundVerdict[]; conflicts: ReviewConflict[] } | { bound: false; reason: string };

/** A claim's text for comparison. */
export function claimKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/[\s.!?;:,…]+$/u, '');
}

export function bindReview(
  drafted: readonly DraftClaim[],
  review: ReviewOutput,
  given: ReadonlySet<string>,
): ReviewBinding {
  if (review.claims.length !== drafted.length) {
    return {
      bound: false,
      reason: `the review returned ${review.claims.length} claims for ${drafted.length} drafted`,
    };
  }
  const verdicts: BoundVerdict[] = [];
  for (const [i, claim] of drafted.entries()) {
    const verdict = review.claims[i];
    if (claimKey(verdict.text) !== claimKey(claim.text))
      return { bound: false, reason: `claim ${i + 1} was re-worded by the review` };
    const foreign = verdict.reference_ids.filter((id) => !claim.reference_ids.includes(id));
    if (foreign.length > 0) {
      return {
        bound: false,
        reason: `claim ${i + 1}: the review cites ${foreign.join(', ')}, which the claim does not cite`,
      };
    }
    // A confirmation must come from the references the claim's quotes are in: a subset without them (say, without
    // the source of the claim's figure) confirms something else.
    const unquoted = claim.quotes.find(
      (q) => verdict.reference_ids.length > 0 && !verdict.reference_ids.includes(q.reference_id),
    );
    if (unquoted !== undefined) {
      return {
        bound: false,
        reason: `claim ${i + 1}: the review confirms it without a reference it quotes (${unquoted.reference_id})`,
      };
    }
    verdicts.push({
      text: claim.text,
      reference_ids: [...claim.reference_ids],
      quotes: claim.quotes.map((q) => ({ reference_id: q.reference_id, text: q.text })),
      confirmed_by: [...new Set(verdict.reference_ids)],
      supported: verdict.supported && verdict.reference_ids.length > 0,
    });
  }
  const cited = new Set(drafted.flatMap((claim) => claim.reference_ids));
  for (const conflict of review.conflicts) {
    if (!cited.has(conflict.reference_id) || !given.has(conflict.conflicting_reference_id))
      return { bound: false, reason: 'a reported conflict names a reference that was not given' };
    if (conflict.reference_id === conflict.conflicting_reference_id)
      return { bound: false, reason: 'a reported conflict names one reference twice' };
  }
  return { bound: true, verdicts, conflicts: review.conflicts.map((c) => ({ ...c })) };
}
