/**
 * THE outcome policy (spec §4.6 rule 3, §7; ARCHITECTURE.md invariant 3): one table from a `system_status` code to
 * its retry semantics. The immediate response, the stored failed-request snapshot (ReplyFailed) and a later
 * request with the same idempotency identity all read retry semantics from here, and nowhere else.
 *
 * Columns:
 * - `retryable` / `retry_after_ms`: what the client is told (retry the same external message with the same
 *   idempotency fields after `retry_after_ms`). A non-retryable code always has `retry_after_ms` 0.
 * - `reclaimable`: a failed request with this stored outcome and no assistant message is processed again when the
 *   same request is repeated (spec §3, "stored outcome is a retryable transient one"). It equals `retryable` for
 *   every row: telling a client to retry and then answering its retry with the stored failure (or the reverse)
 *   would contradict rule 3. A non-reclaimable failure is answered with the stored typed result.
 *
 * Classes of rows:
 * - transient faults (model, provider, runtime, reviewer unreachable, evidence moved): retryable with a delay;
 * - operator/organization state that will be lifted (pauses, plan limit): retryable with a long delay; the failure
 *   wrote nothing, so the same message is processed once the state is lifted;
 * - verdicts on the request or its evidence (policy, authorization, review rejections, insufficient evidence,
 *   deterministic limits, unsafe tool output, malformed binding): not retryable; the same request would get the same
 *   verdict, and regenerating until a reviewer happens to pass would defeat fail-closed review;
 * - answers about a completed request (`completed_reply_*`): not retryable; the same identity always yields them
 *   (spec §3, §9.4); the client sends a new idempotency key to get a new reply.
 */

/** Every code of spec §7, in the spec's order. New codes may be added (§9.5). */
export const SYSTEM_STATUS_CODES = [
  'ai_temporarily_unavailable',
  'provider_unavailable',
  'assistant_paused',
  'organization_agent_activity_paused',
  'assistant_run_canceled',
  'assistant_safety_limit_reached',
  'assistant_tool_limit_reached',
  'assistant_plan_limit_reached',
  'assistant_runtime_unavailable',
  'assistant_runtime_failed',
  'assistant_answer_incomplete',
  'semantic_review_failed',
  'semantic_review_unavailable',
  'semantic_review_evidence_overflow',
  'deterministic_fallback_rejected',
  'selected_references_invalid',
  'authoritative_evidence_insufficient',
  'evidence_changed',
  'external_tool_approval_unsupported',
  'external_tool_output_unsafe',
  'external_agent_run_binding_invalid',
  'completed_reply_requires_regeneration',
  'completed_reply_no_longer_available',
] as const;

export type SystemStatusCode = (typeof SYSTEM_STATUS_CODES)[number];

/** Version of this table; recorded in every v2 receipt's policy versions. Bump it when a row changes. */
export const OUTCOME_POLICY_VERSION = 'outcome-policy/2026-11-24.1';

export type OutcomePolicyEntry = {
  retryable: boolean;
  retry_after_ms: number;
  reclaimable: boolean;
  /** The provider's Retry-After (bounded by MAX_PROVIDER_RETRY_AFTER_MS) replaces `retry_after_ms` when given. */
  honors_provider_retry_after: boolean;
  description: string;
};

/** A provider's Retry-After is honoured up to this bound (a provider asking for an hour gets a retry in a minute). */
export const MAX_PROVIDER_RETRY_AFTER_MS = 60_000;

/** The `system_status` object of spec §2.8. */
export type SystemStatus = {
  code: SystemStatusCode;
  retryable: boolean;
  retry_after_ms: number;
  trace_id: string | null;
};

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const transient = (retry_after_ms: number, description: string): OutcomePolicyEntry => ({
  retryable: true,
  retry_after_ms,
  reclaimable: true,
  honors_provider_retry_after: false,
  description,
});
/** Transient, and the provider may say how long to wait. */
const providerTransient = (retry_after_ms: number, description: string): OutcomePolicyEntry => ({
  ...transient(retry_after_ms, description),
  honors_provider_retry_after: true,
});
const final = (description: string): OutcomePolicyEntry => ({
  retryable: false,
  retry_after_ms: 0,
  reclaimable: false,
  honors_provider_retry_after: false,
  description,
});

export const OUTCOME_POLICY: Readonly<Record<SystemStatusCode, Readonly<OutcomePolicyEntry>>> = {
  // The model call timed out, was rate limited (429), unavailable (503) or failed (5xx): a blip. 3000 ms is the
  // spec's own example; the provider's Retry-After replaces it (at most a minute).
  ai_temporarily_unavailable: providerTransient(3 * SECOND, 'the model is temporarily unavailable'),
  // The model endpoint refused the call (4xx other than 429: a bad key, an unknown model, a request it will not
  // take): only an operator can fix it, never a retry of the same request. Not retryable, like no model at all.
  provider_unavailable: final('the model provider refused the call'),
  // An operator paused this assistant; resuming lifts it. Nothing was written, so a later retry runs afresh.
  assistant_paused: transient(MINUTE, 'the assistant is paused'),
  // The organization's agent activity is paused; same reasoning as assistant_paused.
  organization_agent_activity_paused: transient(MINUTE, "the organization's agent activity is paused"),
  // The run was canceled (shutdown, operator cancel of that run): the cancel applied to the run, not the request.
  assistant_run_canceled: transient(5 * SECOND, 'the assistant run was canceled'),
  // A safety limit of the run tripped: deterministic for the same message; a retry trips it again.
  assistant_safety_limit_reached: final('the assistant run reached a safety limit'),
  // The run exhausted its tool-call budget: a property of the request and the tools, not a transient fault.
  assistant_tool_limit_reached: final('the assistant run reached its tool-call limit'),
  // The organization's reply quota is used up. A capacity state, not a verdict on the request: it lifts when the
  // period rolls over or an operator raises the limit, and the failed request consumed no quota. Retry hourly.
  assistant_plan_limit_reached: transient(HOUR, "the organization's plan limit is reached"),
  // No model is configured (CAIRN_COMPOSER_MODEL / CAIRN_REVIEWER_MODEL unset): no retry can fix it, only an
  // operator, who is warned at start-up. Not retryable: clients stop paying for retries that cannot succeed.
  assistant_runtime_unavailable: final('no model is configured for replies'),
  // The run crashed unexpectedly; nothing was persisted and a crash is no verdict on the request: retry later.
  assistant_runtime_failed: transient(10 * SECOND, 'the assistant run failed unexpectedly'),
  // The model's output was truncated or did not match the draft schema: model nondeterminism, a retry may pass.
  assistant_answer_incomplete: transient(3 * SECOND, 'the drafted answer was incomplete'),
  // The review rejected the draft: a claim unsupported by the reviewer or by Cairn's own figure check, or a review
  // not bound to the drafted claims (re-worded, split, dropped, foreign references). A verdict on the substance:
  // retrying until a reviewer passes would defeat fail-closed review.
  semantic_review_failed: final('the semantic review rejected the answer'),
  // The reviewer was unreachable, timed out, failed (5xx) or answered garbage (off-schema, truncated): no verdict
  // yet, transient, exactly like garbage from the composer.
  semantic_review_unavailable: providerTransient(3 * SECOND, 'the semantic review is unavailable'),
  // The evidence does not fit the reviewer's input bound: deterministic for this request and corpus.
  semantic_review_evidence_overflow: final('the evidence exceeds the review bound'),
  // Only a deterministic fallback answer was available; external replies never use one (policy).
  deterministic_fallback_rejected: final('no fallback answers for external replies'),
  // The draft cited references outside the evidence it was given: a failed citation audit, treated like a review
  // rejection (fail-closed), not as a transient fault.
  selected_references_invalid: final('a citation is outside the evidence'),
  // Spec §4.6 rule 9: retryable false, retry_after_ms 0 (and trace_id null, see systemStatus()).
  authoritative_evidence_insufficient: final('authoritative evidence is insufficient'),
  // A cited memory item was revised or archived while the reply was drafted: a retry drafts on the new revision.
  evidence_changed: transient(SECOND, 'the evidence changed while drafting'),
  // A tool that needs approval cannot run from the external API (policy, spec §3 "unsupported approval").
  external_tool_approval_unsupported: final('tools needing approval are not supported'),
  // Tool output failed the strict output contract (credentials, disallowed URIs, schema): policy.
  external_tool_output_unsafe: final('assistant tool output was unsafe'),
  // The run or tool run is bound to another connector/capability set (authorization): not retryable.
  external_agent_run_binding_invalid: final('the assistant run binding is invalid'),
  // A completed reply with a legacy or unknown receipt version (spec §9.4): the same identity always gets this.
  completed_reply_requires_regeneration: final('regenerate the completed reply under a new key'),
  // A completed reply whose bound evidence, message, run or authorization no longer validates on replay.
  completed_reply_no_longer_available: final('the completed reply is no longer available'),
};

/**
 * Codes whose system_status never carries a trace id (spec §4.6 rule 9: the insufficient-evidence form has
 * trace_id null and no reply_id).
 */
const TRACE_ID_WITHHELD: ReadonlySet<SystemStatusCode> = new Set(['authoritative_evidence_insufficient']);

export function isSystemStatusCode(value: string): value is SystemStatusCode {
  return Object.prototype.hasOwnProperty.call(OUTCOME_POLICY, value);
}

/**
 * The system_status object for a code, with the table's retry semantics. `providerRetryAfterMs` (the provider's
 * Retry-After) replaces the table's delay for codes that honour it, bounded to 0…MAX_PROVIDER_RETRY_AFTER_MS.
 */
export function systemStatus(
  code: SystemStatusCode,
  traceId: string | null,
  providerRetryAfterMs: number | null = null,
): SystemStatus {
  const policy = OUTCOME_POLICY[code];
  const honoured =
    policy.honors_provider_retry_after &&
    providerRetryAfterMs !== null &&
    Number.isFinite(providerRetryAfterMs);
  return {
    code,
    retryable: policy.retryable,
    retry_after_ms: honoured
      ? Math.min(MAX_PROVIDER_RETRY_AFTER_MS, Math.max(0, Math.ceil(providerRetryAfterMs)))
      : policy.retry_after_ms,
    trace_id: TRACE_ID_WITHHELD.has(code) ? null : traceId,
  };
}

/**
 * Whether a failed request whose stored outcome has this code (and no assistant message) is processed again on a
 * repeated request. A code this build does not know (written by a newer build) is not reclaimed: fail closed.
 */
export function isReclaimableOutcome(code: string): boolean {
  return isSystemStatusCode(code) && OUTCOME_POLICY[code].reclaimable;
}
