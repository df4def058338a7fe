import {
  isReclaimableOutcome,
  isSystemStatusCode,
  MAX_PROVIDER_RETRY_AFTER_MS,
  OUTCOME_POLICY,
  SYSTEM_STATUS_CODES,
  systemStatus,
} from '../../../src/commands/replies/outcome-policy';

/** Spec §7, in order: the one list this table must cover. */
const SPEC_CODES = [
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
];

describe('outcome policy (one table, spec §7)', () => {
  it('covers every §7 code exactly once, and nothing else', () => {
    expect(SPEC_CODES).toHaveLength(23);
    expect([...SYSTEM_STATUS_CODES]).toEqual(SPEC_CODES);
    expect(new Set(SYSTEM_STATUS_CODES).size).toBe(SYSTEM_STATUS_CODES.length);
    expect(Object.keys(OUTCOME_POLICY).sort()).toEqual([...SPEC_CODES].sort());
  });

  it('authoritative_evidence_insufficient is (false, 0) with trace_id null', () => {
    expect(OUTCOME_POLICY.authoritative_evidence_insufficient).toMatchObject({
      retryable: false,
      retry_after_ms: 0,
      reclaimable: false,
    });
    expect(systemStatus('authoritative_evidence_insufficient', 'trace-1')).toEqual({
      code: 'authoritative_evidence_insufficient',
      retryable: false,
      retry_after_ms: 0,
      trace_id: null,
    });
  });

  it('ai_temporarily_unavailable is retryable after 3000 ms, as in the spec example', () => {
    expect(systemStatus('ai_temporarily_unavailable', 'trace-1')).toEqual({
      code: 'ai_temporarily_unavailable',
      retryable: true,
      retry_after_ms: 3000,
      trace_id: 'trace-1',
    });
  });

  it.each(SYSTEM_STATUS_CODES)('%s: consistent retry semantics and a description', (code) => {
    const row = OUTCOME_POLICY[code];
    expect(row.description.length).toBeGreaterThan(0);
    expect(Number.isInteger(row.retry_after_ms)).toBe(true);
    // Retryable ⇔ a delay; reclaimable ⇔ retryable (a retry is processed again exactly when told to retry).
    expect(row.retry_after_ms > 0).toBe(row.retryable);
    expect(row.reclaimable).toBe(row.retryable);
    expect(systemStatus(code, null)).toEqual({
      code,
      retryable: row.retryable,
      retry_after_ms: row.retry_after_ms,
      trace_id: null,
    });
  });

  it('policy, authorization, malformed and unsupported-approval outcomes are not retryable', () => {
    for (const code of [
      'deterministic_fallback_rejected',
      'external_tool_approval_unsupported',
      'external_tool_output_unsafe',
      'external_agent_run_binding_invalid',
      'semantic_review_failed',
      // Only an operator fixes these, never a retry: no model configured, the provider refusing the call (4xx).
      'assistant_runtime_unavailable',
      'provider_unavailable',
      // Abstention in any form (spec §4.6 rule 9).
      'authoritative_evidence_insufficient',
      'completed_reply_requires_regeneration',
      'completed_reply_no_longer_available',
    ] as const) {
      expect(OUTCOME_POLICY[code].retryable).toBe(false);
    }
  });

  it('pauses are retryable with a long delay', () => {
    expect(OUTCOME_POLICY.assistant_paused).toMatchObject({ retryable: true, retry_after_ms: 60000 });
    expect(OUTCOME_POLICY.organization_agent_activity_paused).toMatchObject({
      retryable: true,
      retry_after_ms: 60000,
    });
  });

  it('unknown codes (from a newer build) are known as such and never reclaimed', () => {
    expect(isSystemStatusCode('evidence_changed')).toBe(true);
    expect(isSystemStatusCode('some_future_code')).toBe(false);
    expect(isSystemStatusCode('toString')).toBe(false);
    expect(isReclaimableOutcome('some_future_code')).toBe(false);
    expect(isReclaimableOutcome('ai_temporarily_unavailable')).toBe(true);
    expect(isReclaimableOutcome('authoritative_evidence_insufficient')).toBe(false);
  });

  it('a provider Retry-After replaces the delay of the rows that honour it, bounded to a minute', () => {
    expect(systemStatus('ai_temporarily_unavailable', null, 7000).retry_after_ms).toBe(7000);
    expect(systemStatus('ai_temporarily_unavailable', null, 120_000).retry_after_ms).toBe(
      MAX_PROVIDER_RETRY_AFTER_MS,
    );
    expect(systemStatus('ai_temporarily_unavailable', null, -5).retry_after_ms).toBe(0);
    expect(systemStatus('ai_temporarily_unavailable', null, 1234.2).retry_after_ms).toBe(1235);
    expect(systemStatus('semantic_review_unavailable', null, 9000).retry_after_ms).toBe(9000);
    expect(systemStatus('ai_temporarily_unavailable', null, null).retry_after_ms).toBe(3000);
    // Rows that do not honour it keep the table's delay; a final row stays 0.
    expect(systemStatus('assistant_paused', null, 5).retry_after_ms).toBe(60_000);
    expect(systemStatus('semantic_review_failed', null, 5000)).toMatchObject({
      retryable: false,
      retry_after_ms: 0,
    });
    const honouring = SYSTEM_STATUS_CODES.filter((code) => OUTCOME_POLICY[code].honors_provider_retry_after);
    expect(honouring).toEqual(['ai_temporarily_unavailable', 'semantic_review_unavailable']);
  });
});
