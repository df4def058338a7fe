import { InternalError } from '../../common/errors';
import type { GroundingPolicy } from '../../events/connectors/connector.events';
import type { StoredReplyReceipt } from '../../events/replies/reply-request.events';
import { canonicalDigest } from '../shared/canonical-digest';

/**
 * The internal v2 reviewed-reply receipt (spec §9.3): binds everything a completed reply depends on, so a replay is
 * served only after current authorization and every bound invariant are revalidated. `receipt_hash` is SHA-256 over
 * the canonical JSON (RFC 8785) of every other field; v1 and unknown versions are never replayed (§9.4).
 */

export const RECEIPT_VERSION = 2;
/** contract_version of successful replies (spec §2.5, §9.2). */
export const CONTRACT_VERSION = '2026-07-17.2';
/** Versions of the rules a receipt was produced under; bump one when its rules change. */
export const GROUNDING_POLICY_VERSION = 'grounding-policy/2026-07-17.1';
export const REVIEW_POLICY_VERSION = 'semantic-review/2026-11-24.1';
export const SOURCE_LINK_POLICY_VERSION = 'source-links/2026-11-24.1';

/** Any JSON value (for spec fields whose element shape is not shown). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A reference exactly as returned (spec §2.6) plus the revision and derived eligibility it was bound at. */
export type ReceiptReference = {
  reference_id: string;
  memory_item_id: number;
  memory_source_id: number;
  /** The memory item revision the excerpt and chunks come from. */
  revision: number;
  memory_chunk_ids: number[];
  title: string;
  source_uri: string | null;
  source_date: string | null;
  revision_date: string;
  visibility: string;
  audience: string;
  authority: { level: string; score: number; role: string };
  excerpt: string;
  relevance: { score: number; method: string };
  freshness: { status: string; effective_at: string | null; expires_at: string | null };
  limitations: JsonValue[];
  conflicts: JsonValue[];
  trace_verified: boolean;
  grounding_eligible: boolean;
};

/** One successful tool run whose output reached composition (empty until assistant tools are enabled). */
export type ReceiptToolEvidence = {
  tool_key: string;
  tool_run_id: number;
  /** SHA-256 of the canonical tool input, of the projected customer-safe output, and the schema it passed. */
  input_sha256: string;
  output_sha256: string;
  output_schema_sha256: string;
};

export type ReceiptReviewClaim = { text: string; supported: boolean; reference_ids: string[] };

/** One semantic review in the order they ran (the full ledger, rejected attempts included). */
export type ReceiptReviewEntry = {
  /** 1, 2, … in the order the reviews ran; absent in receipts written before the ledger held every attempt. */
  attempt?: number;
  /** `rejected`: the reviewer found a claim unsupported and the reply was drafted again; the last is `approved`. */
  outcome?: 'approved' | 'rejected';
  model: string;
  /** SHA-256 of the canonical review input (question, answer, claims, evidence). */
  review_input_sha256: string;
  sufficient: boolean;
  answers_as_asked: boolean;
  claims: ReceiptReviewClaim[];
  /** The verdicts bound one for one to the drafted claims (review-binding.ts); absent in receipts before them. */
  bound_claims?: Array<{
    text: string;
    reference_ids: string[];
    /** The spans of the cited evidence the claim states (absent in receipts before quote-bound claims). */
    quotes?: Array<{ reference_id: string; text: string }>;
    confirmed_by: string[];
    supported: boolean;
  }>;
  /** What the reviewer reported as contradicting cited evidence. */
  conflicts?: Array<{ reference_id: string; conflicting_reference_id: string; description: string }>;
  reason: string | null;
};

/** What the evidence looked like when reviewed: a replay checks the item is still at this revision and content. */
export type ReceiptEvidenceFingerprint = {
  reference_id: string;
  memory_item_id: number;
  revision: number;
  content_sha256: string;
};

/** The final reviewer's confirmations; a receipt is only built when every one is true (fail closed). */
export type ReceiptReviewerConfirmations = {
  sufficient: boolean;
  answers_as_asked: boolean;
  all_claims_supported: boolean;
  /** Every cited reference_id was in the evidence given to the composer and the reviewer. */
  citations_within_evidence: boolean;
  /** The review returned exactly the drafted claims, in order, citing only what each claim cites. */
  review_bound_to_claims?: boolean;
  /** Cairn's own check: every figure of every claim is in the text it cites. */
  claim_figures_in_cited_evidence?: boolean;
  /** The reply text is assembled from the confirmed claims only. */
  answer_is_claims?: boolean;
  /**
   * What the final review confirmed, one entry per drafted claim in order: the claim and the references the reviewer
   * confirmed it from. Derived from the reviewer's output (review-ledger.ts); absent in receipts written before.
   */
  confirmed_claims?: Array<{ text: string; reference_ids: string[]; confirmed_by: string[] }>;
};

/** What the final review was given, by digest, so a replay can re-derive each part (review-ledger.ts). */
export type ReceiptFinalReviewInput = {
  /** SHA-256 of the canonical JSON of the question (the latest external message), of the answer, of the claims. */
  question_sha256: string;
  answer_sha256: string;
  claims_sha256: string;
  /** The reference ids of the cited evidence the reviewer read (memory items and tool runs). */
  evidence_ids: string[];
};

export type ReceiptPolicyVersions = {
  grounding_policy: GroundingPolicy;
  grounding_policy_version: string;
  outcome_policy_version: string;
  review_policy_version: string;
  source_link_policy_version: string;
};

/** Fields of the semantic sufficiency decision recorded in grounding.semantic_sufficiency (spec §2.7). */
export type SemanticSufficiencyRecord = {
  sufficient: boolean;
  answers_as_asked: boolean;
  all_claims_supported: boolean;
  reviewer_model: string;
  review_input_sha256: string;
  reason: string | null;
};

/** The grounding block of spec §2.7 as generated (idempotent_replay is per response, so not bound here). */
export type ReceiptGrounding = {
  status: string;
  reason: string | null;
  trace_id: number;
  evidence_as_of: string;
  corpus_revision: string;
  index_revision: string;
  authoritative_reference_count: number;
  supporting_reference_count: number;
  inferences: JsonValue[];
  uncertainties: JsonValue[];
  gaps: JsonValue[];
  generated_at: string;
  semantic_sufficiency: SemanticSufficiencyRecord;
};

export type ReceiptUsage = {
  model: string;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
};

export type ReceiptSourceLink = { label: string; url: string };

/** Every bound field of a v2 receipt (what buildReceiptV2 takes). */
export type ReplyReceiptV2Fields = {
  /** Request binding. */
  request_fingerprint: string;
  identity_digest: string;
  reply_id: number;
  external_thread_id: string;
  external_message_id: string | null;
  /** Tenant, assistant, conversation and messages. */
  organization_id: number;
  chatbot_id: number;
  conversation_id: number;
  user_message_id: number;
  assistant_message_id: number;
  /** Connector and token provenance: the token of the first request, and the one of the completing attempt. */
  connector_id: number;
  original_token_id: string;
  current_token_id: string;
  /** The exact run and what it produced. */
  agent_run_id: number;
  final_text: string;
  references: ReceiptReference[];
  tool_evidence: ReceiptToolEvidence[];
  review_ledger: ReceiptReviewEntry[];
  /** SHA-256 over the canonical JSON of the whole ledger; absent in receipts written before (one-entry ledgers). */
  review_ledger_sha256?: string;
  final_review_input_sha256: string;
  /** Absent in receipts written before it was bound. */
  final_review_input?: ReceiptFinalReviewInput;
  evidence_fingerprints: ReceiptEvidenceFingerprint[];
  reviewer_confirmations: ReceiptReviewerConfirmations;
  policy_versions: ReceiptPolicyVersions;
  /** The response fields a replay returns as they were. */
  source_links: ReceiptSourceLink[];
  usage: ReceiptUsage;
  grounding: ReceiptGrounding;
  memory_recall_trace_id: number;
  answer_mode: string;
  answer_intent: string;
  contract_version: string;
};

export type ReplyReceiptV2 = { version: 2 } & ReplyReceiptV2Fields & { receipt_hash: string };

/** Top-level fields every v2 receipt has (structural check before replay). */
const V2_FIELDS: ReadonlyArray<keyof ReplyReceiptV2Fields> = [
  'request_fingerprint',
  'identity_digest',
  'reply_id',
  'external_thread_id',
  'external_message_id',
  'organization_id',
  'chatbot_id',
  'conversation_id',
  'user_message_id',
  'assistant_message_id',
  'connector_id',
  'original_token_id',
  'current_token_id',
  'agent_run_id',
  'final_text',
  'references',
  'tool_evidence',
  'review_ledger',
  'final_review_input_sha256',
  'evidence_fingerprints',
  'reviewer_confirmations',
  'policy_versions',
  'source_links',
  'usage',
  'grounding',
  'memory_recall_trace_id',
  'answer_mode',
  'answer_intent',
  'contract_version',
];

/** SHA-256 (hex) of the canonical JSON of a receipt without its `receipt_hash`. */
export function receiptHash(receipt: Record<string, unknown>): string {
  const rest = Object.fromEntries(Object.entries(receipt).filter(([key]) => key !== 'receipt_hash'));
  return canonicalDigest(rest);
}

/**
 * Builds a v2 receipt. Refuses (500, a bug) to build one for a reply the reviewer did not fully confirm: no receipt
 * may exist for an unconfirmed reply (ARCHITECTURE.md invariant 3).
 */
export function buildReceiptV2(fields: ReplyReceiptV2Fields): ReplyReceiptV2 {
  const { confirmed_claims, ...flags } = fields.reviewer_confirmations;
  const unconfirmed = Object.entries(flags).filter(([, value]) => value !== true);
  if (confirmed_claims?.length === 0 || confirmed_claims?.some((c) => c.confirmed_by.length === 0))
    unconfirmed.push(['confirmed_claims', false]);
  if (unconfirmed.length > 0) {
    throw new InternalError(
      `refusing a receipt for an unconfirmed reply (${unconfirmed.map(([key]) => key).join(', ')})`,
    );
  }
  const body = { version: RECEIPT_VERSION as 2, ...fields };
  return { ...body, receipt_hash: receiptHash(body) };
}

/** Whether the receipt's hash matches its content (detects any edit of a bound field). */
export function verifyReceiptHash(receipt: Record<string, unknown>): boolean {
  return typeof receipt.receipt_hash === 'string' && receipt.receipt_hash === receiptHash(receipt);
}

/**
 * Whether a stored receipt is a replayable v2 receipt: version 2, every bound field present, hash intact.
 * Anything else (v1, unknown versions, a damaged v2) is never replayed (§9.4).
 */
export function isReplayableReceiptV2(
  receipt: StoredReplyReceipt,
): receipt is ReplyReceiptV2 & StoredReplyReceipt {
  return (
    receipt.version === RECEIPT_VERSION &&
    V2_FIELDS.every((field) => Object.prototype.hasOwnProperty.call(receipt, field)) &&
    verifyReceiptHash(receipt)
  );
}
