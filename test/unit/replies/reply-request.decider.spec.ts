import { systemStatus, type SystemStatusCode } from '../../../src/commands/replies/outcome-policy';
import {
  buildReceiptV2,
  CONTRACT_VERSION,
  type ReplyReceiptV2,
} from '../../../src/commands/replies/reply-receipt';
import {
  classifyRepeat,
  replyRequestDecider,
  type ReplyRequestCommand,
  type ReplyRequestFields,
} from '../../../src/commands/replies/reply-request.decider';
import { fold } from '../../../src/commands/shared/decider';
import type { ReplyRequestEvent, StoredReplyReceipt } from '../../../src/events/replies/reply-request.events';
import { givenDecider } from '../../support/decider-spec';

const given = givenDecider(replyRequestDecider);
const state = (events: ReplyRequestEvent[]) => fold(replyRequestDecider, events);

const T0 = Date.parse('2026-07-17T10:00:00.000Z');
const LEASE = 120_000;
const iso = (ms: number) => new Date(ms).toISOString();
const FP = 'f'.repeat(64);
const OTHER_FP = 'e'.repeat(64);

const request: ReplyRequestFields = {
  reply_id: 10,
  organization_id: 1,
  connector_id: 2,
  chatbot_id: 3,
  identity_digest: 'd'.repeat(64),
  key_kind: 'idempotency_key',
  key: 'key-1',
  fingerprint: FP,
  external_thread_id: 'thread-1',
  external_message_id: 'msg-1',
  token_id: 'tok_1',
};

const ask = (now_ms: number, change: Partial<ReplyRequestFields> = {}): ReplyRequestCommand => ({
  type: 'Request',
  now_ms,
  lease_ms: LEASE,
  lease_owner: `worker-${now_ms}`,
  request: { ...request, ...change },
});

const requestedWith = (change: Partial<ReplyRequestFields> = {}): ReplyRequestEvent => ({
  type: 'ReplyRequested',
  data: {
    ...request,
    ...change,
    lease_owner: `worker-${T0}`,
    lease_expires_at: iso(T0 + LEASE),
    requested_at: iso(T0),
  },
});
const requested = requestedWith();

/** A complete v2 receipt binding `request` (the content of the bound collections does not matter here). */
function receipt(change: { current_token_id?: string } = {}): ReplyReceiptV2 {
  const confirmed = { sufficient: true, answers_as_asked: true, all_claims_supported: true };
  const hash = 'r'.repeat(64);
  return buildReceiptV2({
    ...{ request_fingerprint: FP, identity_digest: request.identity_digest, reply_id: 10 },
    ...{ external_thread_id: 'thread-1', external_message_id: 'msg-1', organization_id: 1, chatbot_id: 3 },
    ...{ conversation_id: 20, user_message_id: 30, assistant_message_id: 31, connector_id: 2 },
    ...{ original_token_id: 'tok_1', current_token_id: change.current_token_id ?? 'tok_1', agent_run_id: 40 },
    ...{ final_text: 'We are open 9 to 5.', references: [], tool_evidence: [], review_ledger: [] },
    ...{ final_review_input_sha256: hash, evidence_fingerprints: [], source_links: [] },
    reviewer_confirmations: { ...confirmed, citations_within_evidence: true },
    policy_versions: {
      ...{ grounding_policy: 'strict', grounding_policy_version: 'g', outcome_policy_version: 'o' },
      ...{ review_policy_version: 'r', source_link_policy_version: 's' },
    },
    usage: { model: 'm', input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    grounding: {
      ...{ status: 'grounded', reason: null, trace_id: 50, evidence_as_of: iso(T0), generated_at: iso(T0) },
      ...{ corpus_revision: 'c', index_revision: 'i', authoritative_reference_count: 1 },
      ...{ supporting_reference_count: 0, inferences: [], uncertainties: [], gaps: [] },
      semantic_sufficiency: { ...confirmed, reviewer_model: 'm', review_input_sha256: hash, reason: null },
    },
    ...{ memory_recall_trace_id: 50, answer_mode: 'facts', answer_intent: 'answer_business_question' },
    contract_version: CONTRACT_VERSION,
  });
}

const ids = { reply_id: 10, organization_id: 1 };
const completed = (r: StoredReplyReceipt = receipt(), attempt = 1): ReplyRequestEvent => ({
  type: 'ReplyCompleted',
  data: { ...ids, attempt, receipt: r, completed_at: iso(T0 + 5000) },
});
const failed = (code: SystemStatusCode, assistant_message_persisted = false): ReplyRequestEvent => ({
  type: 'ReplyFailed',
  data: {
    ...ids,
    attempt: 1,
    outcome: systemStatus(code, 'trace-1'),
    assistant_message_persisted,
    failed_at: iso(T0 + 5000),
  },
});
const reclaimedAt = (now_ms: number, previous_outcome: string, token_id = 'tok_1'): ReplyRequestEvent => ({
  type: 'ReplyRequestReclaimed',
  data: {
    ...ids,
    attempt: 2,
    token_id,
    lease_owner: `worker-${now_ms}`,
    lease_expires_at: iso(now_ms + LEASE),
    reclaimed_at: iso(now_ms),
    previous_outcome,
  },
});
const failCommand = (attempt: number, code: SystemStatusCode, now_ms = T0 + 5000): ReplyRequestCommand => ({
  type: 'Fail',
  attempt,
  outcome: systemStatus(code, 'trace-1'),
  assistant_message_persisted: false,
  now_ms,
});
const completeCommand = (attempt: number, r = receipt(), now_ms = T0 + 5000): ReplyRequestCommand => ({
  type: 'Complete',
  attempt,
  receipt: r,
  now_ms,
});
const LATER = T0 + 10_000; // a repeat well inside the first lease

describe('reply request decider: spec §3 table', () => {
  it('none | reply request | neither key seen before → a new reply is created (one request record)', () => {
    given([]).when(ask(T0)).then([requested]);
    expect(classifyRepeat(state([]), FP, T0)).toEqual({ kind: 'new' });
  });

  it('completed | repeated request | fingerprint matches → same reply returned (replay, no new events)', () => {
    const history = [requested, completed()];
    given(history).when(ask(LATER)).then([]);
    expect(classifyRepeat(state(history), FP, LATER)).toEqual({ kind: 'replay', receipt: receipt() });
  });

  it('completed | repeated request | a newly rotated token of the same connector may replay; the original token stays as provenance', () => {
    const history = [requested, completed()];
    const rotated = ask(LATER, { token_id: 'tok_2' });
    given(history).when(rotated).then([]);
    const current = state(history);
    expect(current.request?.token_id).toBe('tok_1');
    const verdict = classifyRepeat(current, FP, LATER);
    expect(verdict).toMatchObject({ kind: 'replay', receipt: { original_token_id: 'tok_1' } });
  });

  it('completed (legacy v1 receipt or unknown receipt version) | repeated request | always → completed_reply_requires_regeneration', () => {
    const legacy = [requested, completed({ version: 1, reply_id: 10, text: 'legacy answer' })];
    given(legacy).when(ask(LATER)).then([]);
    expect(classifyRepeat(state(legacy), FP, LATER)).toEqual({ kind: 'requires_regeneration' });
    const unknown = [requested, completed({ ...receipt(), version: 3 })];
    expect(classifyRepeat(state(unknown), FP, LATER)).toEqual({ kind: 'requires_regeneration' });
    // A v2 receipt whose hash no longer verifies gets no weaker-rule replay either.
    const damaged = [requested, completed({ ...receipt(), final_text: 'edited' })];
    expect(classifyRepeat(state(damaged), FP, LATER)).toEqual({ kind: 'requires_regeneration' });
  });

  it('pending | repeated request | request still in progress → HTTP 409', () => {
    given([requested]).when(ask(LATER)).thenThrows('reply_request_pending');
    expect(classifyRepeat(state([requested]), FP, LATER)).toMatchObject({
      kind: 'conflict',
      code: 'reply_request_pending',
    });
  });

  it('failed, assistant message already persisted | repeated request → HTTP 409', () => {
    // Even when the stored outcome would otherwise be reclaimable.
    for (const code of ['ai_temporarily_unavailable', 'semantic_review_failed'] as const) {
      const history = [requested, failed(code, true)];
      given(history).when(ask(LATER)).thenThrows('reply_request_failed_after_message');
      expect(classifyRepeat(state(history), FP, LATER)).toMatchObject({
        kind: 'conflict',
        code: 'reply_request_failed_after_message',
      });
    }
  });

  it('failed, no assistant message persisted | repeated request | stored outcome is a retryable transient one → request reclaimed and processed again', () => {
    const history = [requested, failed('ai_temporarily_unavailable')];
    expect(classifyRepeat(state(history), FP, LATER)).toEqual({ kind: 'reclaim' });
    given(history)
      .when(ask(LATER, { token_id: 'tok_2' }))
      .then([reclaimedAt(LATER, 'ai_temporarily_unavailable', 'tok_2')]);
    const reclaimed = state([...history, ...replyRequestDecider.decide(ask(LATER), state(history))]);
    expect(reclaimed).toMatchObject({ status: 'pending', attempt: 2, outcome: null });
  });

  it('failed, no assistant message persisted | repeated request | stored outcome is non-retryable (policy, authorization, malformed request, unsupported approval) → stored typed result', () => {
    for (const code of [
      'authoritative_evidence_insufficient',
      'deterministic_fallback_rejected',
      'external_agent_run_binding_invalid',
      'external_tool_approval_unsupported',
    ] as const) {
      const history = [requested, failed(code)];
      given(history).when(ask(LATER)).then([]);
      expect(classifyRepeat(state(history), FP, LATER)).toEqual({
        kind: 'stored_failure',
        outcome: systemStatus(code, 'trace-1'),
      });
    }
  });

  it('any | concurrent requests with same identity → one request record; loser gets completed replay or 409 while winner is in progress', () => {
    // The loser's append fails ("no stream" taken); it re-reads and decides again on the winner's stream.
    const loser = ask(T0, { token_id: 'tok_loser' });
    given([requested]).when(loser).thenThrows('reply_request_pending');
    given([requested, completed()]).when(loser).then([]);
    expect(classifyRepeat(state([requested, completed()]), FP, T0).kind).toBe('replay');
  });

  it('any | request reusing a key or external message id with changed content → HTTP 409, no replay of unrelated evidence', () => {
    const states: ReplyRequestEvent[][] = [
      [requested],
      [requested, completed()],
      [requested, completed({ version: 1 })],
      [requested, failed('ai_temporarily_unavailable')],
      [requested, failed('semantic_review_failed')],
      [requested, failed('provider_unavailable', true)],
    ];
    const changed = ask(LATER, { fingerprint: OTHER_FP });
    const changedAfterLease = ask(T0 + LEASE * 10, { fingerprint: OTHER_FP }); // changed content never reclaims
    for (const history of states) {
      given(history).when(changed).thenThrows('idempotency_key_reused');
      given(history).when(changedAfterLease).thenThrows('idempotency_key_reused');
    }
    const byMessageId = requestedWith({ key_kind: 'external_message_id', key: 'msg-1' });
    given([byMessageId, completed()])
      .when(ask(LATER, { fingerprint: OTHER_FP, key_kind: 'external_message_id', key: 'msg-1' }))
      .thenThrows('external_message_id_reused');
  });
});

describe('reply request decider: lease expiry (a crashed process)', () => {
  it('a pending request whose lease expired is reclaimed by the same request', () => {
    const expiry = T0 + LEASE;
    const [justBefore, atExpiry] = [ask(expiry - 1), ask(expiry)];
    given([requested]).when(justBefore).thenThrows('reply_request_pending');
    expect(classifyRepeat(state([requested]), FP, expiry)).toEqual({ kind: 'reclaim' });
    given([requested])
      .when(atExpiry)
      .then([reclaimedAt(expiry, 'lease_expired')]);
  });

  it('the process whose lease was taken over cannot finish the newer attempt', () => {
    const history = [requested, reclaimedAt(T0 + 2 * LEASE, 'lease_expired')];
    const [staleComplete, staleFail] = [completeCommand(1), failCommand(1, 'provider_unavailable')];
    given(history).when(staleComplete).thenThrows('reply_request_lease_lost');
    given(history).when(staleFail).thenThrows('reply_request_lease_lost');
    given(history)
      .when(completeCommand(2))
      .then([completed(receipt(), 2)]);
  });
});

describe('reply request decider: Complete and Fail guards', () => {
  const complete = () => completeCommand(1);
  const fail = (code: SystemStatusCode = 'provider_unavailable') => failCommand(1, code);

  it('completes and fails a pending attempt', () => {
    given([requested]).when(complete()).then([completed()]);
    const transient = fail('ai_temporarily_unavailable');
    given([requested])
      .when(transient)
      .then([failed('ai_temporarily_unavailable')]);
  });

  it('Complete/Fail only from pending', () => {
    given([]).when(complete()).thenThrows('reply_request_not_pending');
    given([]).when(fail()).thenThrows('reply_request_not_pending');
    given([requested, completed()]).when(complete()).thenThrows('reply_request_not_pending');
    given([requested, completed()]).when(fail()).thenThrows('reply_request_not_pending');
    const failedBefore = [requested, failed('provider_unavailable')];
    given(failedBefore).when(fail()).thenThrows('reply_request_not_pending');
    given(failedBefore).when(complete()).thenThrows('reply_request_not_pending');
  });

  it('takes retry semantics from the outcome policy, not from the caller', () => {
    const forged: ReplyRequestCommand = {
      type: 'Fail',
      attempt: 1,
      outcome: { code: 'semantic_review_failed', retryable: true, retry_after_ms: 1, trace_id: 'trace-1' },
      assistant_message_persisted: false,
      now_ms: T0 + 5000,
      detail: 'reviewer rejected claim 2',
    };
    given([requested])
      .when(forged)
      .then([
        {
          type: 'ReplyFailed',
          data: {
            ...ids,
            attempt: 1,
            outcome: systemStatus('semantic_review_failed', 'trace-1'),
            assistant_message_persisted: false,
            failed_at: iso(T0 + 5000),
            detail: 'reviewer rejected claim 2',
          },
        },
      ]);
  });

  it('refuses a receipt that does not bind this request', () => {
    const { version: _version, receipt_hash: _hash, ...fields } = receipt();
    const otherRequest = buildReceiptV2({ ...fields, request_fingerprint: OTHER_FP });
    const otherToken = receipt({ current_token_id: 'tok_9' });
    const edited = { ...receipt(), final_text: 'edited' };
    for (const wrong of [otherRequest, otherToken, edited]) {
      given([requested]).when(completeCommand(1, wrong)).thenThrows('internal_error');
    }
  });
});
