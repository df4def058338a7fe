import { OUTCOME_POLICY_VERSION } from '../../../src/commands/replies/outcome-policy';
import {
  buildReceiptV2,
  CONTRACT_VERSION,
  GROUNDING_POLICY_VERSION,
  isReplayableReceiptV2,
  receiptHash,
  REVIEW_POLICY_VERSION,
  SOURCE_LINK_POLICY_VERSION,
  verifyReceiptHash,
  type ReplyReceiptV2Fields,
} from '../../../src/commands/replies/reply-receipt';
import type { StoredReplyReceipt } from '../../../src/events/replies/reply-request.events';

const fields: ReplyReceiptV2Fields = {
  request_fingerprint: 'f'.repeat(64),
  identity_digest: 'd'.repeat(64),
  reply_id: 10,
  external_thread_id: 'thread-1',
  external_message_id: 'msg-1',
  organization_id: 1,
  chatbot_id: 3,
  conversation_id: 20,
  user_message_id: 30,
  assistant_message_id: 31,
  connector_id: 2,
  original_token_id: 'tok_1',
  current_token_id: 'tok_1',
  agent_run_id: 40,
  final_text: 'We are open 9 to 5.',
  references: [
    {
      reference_id: 'mi-5:r2:c7',
      memory_item_id: 5,
      memory_source_id: 6,
      revision: 2,
      memory_chunk_ids: [7],
      title: 'Opening hours',
      source_uri: 'https://example.com/hours',
      source_date: '2026-07-01T00:00:00Z',
      revision_date: '2026-07-02T00:00:00Z',
      visibility: 'organization_internal',
      audience: 'customer_safe',
      authority: { level: 'approved_source', score: 1, role: 'authoritative' },
      excerpt: 'Open 9 to 5.',
      relevance: { score: 0.9, method: 'semantic' },
      freshness: { status: 'current', effective_at: '2026-07-01T00:00:00Z', expires_at: null },
      limitations: [],
      conflicts: [],
      trace_verified: true,
      grounding_eligible: true,
    },
  ],
  tool_evidence: [],
  review_ledger: [
    {
      model: 'reviewer-1',
      review_input_sha256: 'r'.repeat(64),
      sufficient: true,
      answers_as_asked: true,
      claims: [{ text: 'Open 9 to 5', supported: true, reference_ids: ['mi-5:r2:c7'] }],
      reason: null,
    },
  ],
  final_review_input_sha256: 'r'.repeat(64),
  evidence_fingerprints: [
    { reference_id: 'mi-5:r2:c7', memory_item_id: 5, revision: 2, content_sha256: 'c'.repeat(64) },
  ],
  reviewer_confirmations: {
    sufficient: true,
    answers_as_asked: true,
    all_claims_supported: true,
    citations_within_evidence: true,
  },
  policy_versions: {
    grounding_policy: 'strict',
    grounding_policy_version: GROUNDING_POLICY_VERSION,
    outcome_policy_version: OUTCOME_POLICY_VERSION,
    review_policy_version: REVIEW_POLICY_VERSION,
    source_link_policy_version: SOURCE_LINK_POLICY_VERSION,
  },
  source_links: [{ label: 'Opening hours', url: 'https://example.com/hours' }],
  usage: { model: 'composer-1', input_tokens: 100, output_tokens: 20, total_tokens: 120 },
  grounding: {
    status: 'grounded',
    reason: null,
    trace_id: 50,
    evidence_as_of: '2026-07-17T10:00:00Z',
    corpus_revision: 'corpus-1',
    index_revision: 'index-1',
    authoritative_reference_count: 1,
    supporting_reference_count: 0,
    inferences: [],
    uncertainties: [],
    gaps: [],
    generated_at: '2026-07-17T10:00:01Z',
    semantic_sufficiency: {
      sufficient: true,
      answers_as_asked: true,
      all_claims_supported: true,
      reviewer_model: 'reviewer-1',
      review_input_sha256: 'r'.repeat(64),
      reason: null,
    },
  },
  memory_recall_trace_id: 50,
  answer_mode: 'facts',
  answer_intent: 'answer_business_question',
  contract_version: CONTRACT_VERSION,
};

/** A different JSON value of the same kind, so a changed field is still well-typed-looking. */
function changed(value: unknown): unknown {
  if (typeof value === 'string') return `${value}x`;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (value === null) return 'now-set';
  if (Array.isArray(value)) return [...value, 'extra'];
  return { ...(value as object), extra: true };
}

describe('v2 reply receipt', () => {
  it('is version 2 with a SHA-256 over every other field', () => {
    const receipt = buildReceiptV2(fields);
    expect(receipt.version).toBe(2);
    expect(receipt.receipt_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(receipt.receipt_hash).toBe(receiptHash({ version: 2, ...fields }));
    expect(verifyReceiptHash(receipt)).toBe(true);
    expect(isReplayableReceiptV2(receipt)).toBe(true);
  });

  it('is stable under key order and survives a JSON round trip (as stored in an event)', () => {
    const reversed = Object.fromEntries(Object.entries(fields).reverse()) as ReplyReceiptV2Fields;
    expect(buildReceiptV2(reversed).receipt_hash).toBe(buildReceiptV2(fields).receipt_hash);
    const stored = JSON.parse(JSON.stringify(buildReceiptV2(fields))) as Record<string, unknown>;
    expect(verifyReceiptHash(stored)).toBe(true);
  });

  it.each(Object.keys(fields) as Array<keyof ReplyReceiptV2Fields>)(
    'the hash changes when %s changes',
    (field) => {
      const base = buildReceiptV2(fields).receipt_hash;
      const other = { ...fields, [field]: changed(fields[field]) } as ReplyReceiptV2Fields;
      expect(buildReceiptV2(other).receipt_hash).not.toBe(base);
    },
  );

  it('the hash changes when a nested bound value changes (a reference revision, a review verdict)', () => {
    const base = buildReceiptV2(fields).receipt_hash;
    const revised = structuredClone(fields);
    revised.references[0].revision = 3;
    expect(buildReceiptV2(revised).receipt_hash).not.toBe(base);
    const reviewed = structuredClone(fields);
    reviewed.review_ledger[0].claims[0].supported = false;
    expect(buildReceiptV2(reviewed).receipt_hash).not.toBe(base);
  });

  it('verification detects tampering with any field, the version or the hash itself', () => {
    const receipt = buildReceiptV2(fields);
    expect(verifyReceiptHash({ ...receipt, final_text: 'We are open 24/7.' })).toBe(false);
    expect(verifyReceiptHash({ ...receipt, current_token_id: 'tok_9' })).toBe(false);
    expect(verifyReceiptHash({ ...receipt, injected: true })).toBe(false);
    expect(verifyReceiptHash({ ...receipt, receipt_hash: '0'.repeat(64) })).toBe(false);
    const { receipt_hash: _hash, ...unhashed } = receipt;
    expect(verifyReceiptHash(unhashed)).toBe(false);
    const tampered = structuredClone(receipt);
    tampered.references[0].trace_verified = false;
    expect(verifyReceiptHash(tampered)).toBe(false);
    expect(isReplayableReceiptV2(tampered)).toBe(false);
  });

  it('only intact, complete version-2 receipts are replayable', () => {
    const receipt = buildReceiptV2(fields);
    expect(isReplayableReceiptV2({ version: 1, reply_id: 10, text: 'legacy' })).toBe(false);
    const rehashed = (body: Record<string, unknown>): StoredReplyReceipt => ({
      version: Number(body.version),
      ...body,
      receipt_hash: receiptHash(body),
    });
    const { receipt_hash: _hash, ...body } = receipt;
    expect(isReplayableReceiptV2(rehashed({ ...body, version: 3 }))).toBe(false);
    const { usage: _usage, ...incomplete } = body;
    expect(isReplayableReceiptV2(rehashed(incomplete))).toBe(false);
  });

  it('refuses to build a receipt the reviewer did not fully confirm', () => {
    for (const key of Object.keys(fields.reviewer_confirmations)) {
      const unconfirmed = {
        ...fields,
        reviewer_confirmations: { ...fields.reviewer_confirmations, [key]: false },
      };
      expect(() => buildReceiptV2(unconfirmed)).toThrow(expect.objectContaining({ code: 'internal_error' }));
    }
  });
});
