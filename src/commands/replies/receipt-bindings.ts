/**
 * Replay re-checks of what a v2 receipt binds about its own making (spec §9.3): the policy versions it was produced
 * under, the full review ledger, the final review input and the reviewer confirmations. A receipt that fails one is
 * never replayed: `completed_reply_requires_regeneration` (it was made under other rules, or its bindings disagree).
 * What it binds about the world (conversation, messages, evidence, trace, tools, links, freshness) is re-checked by
 * ReplyRun.revalidate. Pure. See docs/replies.md "Replay re-checks".
 */
import { canonicalDigest } from '../shared/canonical-digest';
import { OUTCOME_POLICY_VERSION } from './outcome-policy';
import {
  GROUNDING_POLICY_VERSION,
  REVIEW_POLICY_VERSION,
  SOURCE_LINK_POLICY_VERSION,
  type ReceiptPolicyVersions,
  type ReplyReceiptV2,
} from './reply-receipt';
import { confirmationsFrom, finalClaimsOf, ledgerDigest, MAX_REVIEW_ATTEMPTS } from './review-ledger';

/** The versions of the rules in force now; a receipt made under any other is regenerated, never replayed. */
export const CURRENT_POLICY_VERSIONS: Omit<ReceiptPolicyVersions, 'grounding_policy'> = {
  grounding_policy_version: GROUNDING_POLICY_VERSION,
  outcome_policy_version: OUTCOME_POLICY_VERSION,
  review_policy_version: REVIEW_POLICY_VERSION,
  source_link_policy_version: SOURCE_LINK_POLICY_VERSION,
};

/** Reference id of a tool run's output as cited by claims (reply-tools.ts). */
export const toolReferenceId = (toolRunId: number): string => `tool-run:${toolRunId}`;

/** The ids a reply's claims may cite: its references and its successful tool runs. */
export function citableIds(receipt: Pick<ReplyReceiptV2, 'references' | 'tool_evidence'>): Set<string> {
  return new Set([
    ...receipt.references.map((r) => r.reference_id),
    ...receipt.tool_evidence.map((t) => toolReferenceId(t.tool_run_id)),
  ]);
}

const sameSet = (a: readonly string[], b: ReadonlySet<string>): boolean =>
  new Set(a).size === b.size && a.every((id) => b.has(id));

function policyProblem(receipt: ReplyReceiptV2): string | null {
  for (const [key, current] of Object.entries(CURRENT_POLICY_VERSIONS)) {
    const recorded = (receipt.policy_versions as Record<string, unknown>)[key];
    if (recorded !== current) return `${key} was ${String(recorded)}, is now ${current}`;
  }
  return null;
}

/**
 * The ledger: every attempt in order, each rejected one rejected for an unsupported claim, the last approved,
 * its digest intact. A receipt written before the ledger held every attempt (no digest) has exactly one entry.
 */
function ledgerProblem(receipt: ReplyReceiptV2): string | null {
  const ledger = receipt.review_ledger;
  if (!Array.isArray(ledger) || ledger.length === 0) return 'the review ledger is empty';
  if (receipt.review_ledger_sha256 === undefined) {
    return ledger.length === 1 && ledger[0].attempt === undefined ? null : 'the review ledger has no digest';
  }
  if (receipt.review_ledger_sha256 !== ledgerDigest(ledger))
    return 'the review ledger does not match its digest';
  if (ledger.length > MAX_REVIEW_ATTEMPTS) return `the review ledger has ${ledger.length} attempts`;
  const last = ledger.length - 1;
  const out = ledger.findIndex(
    (entry, i) =>
      entry.attempt !== i + 1 ||
      entry.outcome !== (i === last ? 'approved' : 'rejected') ||
      (i < last && !(entry.bound_claims ?? []).some((b) => !b.supported)),
  );
  return out >= 0 ? `review attempt ${out + 1} is out of order or not what its outcome says` : null;
}

/** The final review input: the last review's, given this question, this answer, these claims and this evidence. */
function finalInputProblem(receipt: ReplyReceiptV2, question: string): string | null {
  const final = receipt.review_ledger[receipt.review_ledger.length - 1];
  if (
    final.review_input_sha256 !== receipt.final_review_input_sha256 ||
    receipt.grounding.semantic_sufficiency.review_input_sha256 !== receipt.final_review_input_sha256
  )
    return 'the final review input is not the last review’s';
  const input = receipt.final_review_input;
  if (input === undefined)
    return receipt.review_ledger_sha256 === undefined ? null : 'the final review input is not bound';
  if (input.question_sha256 !== canonicalDigest(question))
    return 'the final review was given another question';
  if (input.answer_sha256 !== canonicalDigest(receipt.final_text))
    return 'the final review was given another answer';
  const claims = finalClaimsOf(final);
  if (input.claims_sha256 !== canonicalDigest(claims)) return 'the final review was given other claims';
  const cited = new Set(claims.flatMap((c) => c.reference_ids));
  if (!sameSet(input.evidence_ids, cited) || receipt.references.some((r) => !cited.has(r.reference_id)))
    return 'the final review was given other evidence than the reply cites';
  return null;
}

/**
 * The confirmations, derived again from the approving ledger entry: each must hold, and a receipt that records
 * the confirmed claims must record exactly what the ledger derives. A receipt written before (no ledger digest)
 * recorded flags only: each must be true, and the ledger must confirm them (else regenerate: a ledger without
 * bound verdicts cannot).
 */
function confirmationsProblem(receipt: ReplyReceiptV2): string | null {
  const final = receipt.review_ledger[receipt.review_ledger.length - 1];
  const stored = receipt.reviewer_confirmations;
  const derived = confirmationsFrom(final, {
    final_text: receipt.final_text,
    answer_mode: receipt.answer_mode,
    within: citableIds(receipt),
    figuresChecked: stored.claim_figures_in_cited_evidence === true,
  });
  const { confirmed_claims: _claims, ...flags } = derived;
  const unconfirmed = Object.entries(flags).filter(([, value]) => value !== true);
  if (unconfirmed.length > 0)
    return `the final review does not confirm ${unconfirmed.map(([key]) => key).join(', ')}`;
  if (receipt.review_ledger_sha256 === undefined) {
    const { confirmed_claims: _none, ...storedFlags } = stored;
    return Object.values(storedFlags).every((value) => value === true)
      ? null
      : 'the recorded confirmations are not all true';
  }
  return canonicalDigest(stored) === canonicalDigest(derived)
    ? null
    : 'the recorded reviewer confirmations are not the ledger’s';
}

/** Why a receipt's own bindings rule out a replay (`question`: the repeated request's latest message), or null. */
export function receiptBindingProblem(receipt: ReplyReceiptV2, question: string): string | null {
  return (
    policyProblem(receipt) ??
    ledgerProblem(receipt) ??
    finalInputProblem(receipt, question) ??
    confirmationsProblem(receipt)
  );
}
