import { ConflictError, InternalError } from '../../common/errors';
import type {
  ReplyKeyKind,
  ReplyOutcome,
  ReplyRequested,
  ReplyRequestEvent,
  StoredReplyReceipt,
} from '../../events/replies/reply-request.events';
import type { Decider } from '../shared/decider';
import { isReclaimableOutcome, systemStatus, type SystemStatus } from './outcome-policy';
import { isReplayableReceiptV2, verifyReceiptHash, type ReplyReceiptV2 } from './reply-receipt';

/**
 * One reply request identity (spec §3): the first request creates the record and takes a lease; repeats are
 * classified by classifyRepeat(). Attempts are numbered from 1; Complete and Fail name the attempt they finish, so a
 * process whose lease was taken over (a reclaim after its lease expired) cannot finish the newer attempt.
 */

export type ReplyRequestStatus = 'none' | 'pending' | 'completed' | 'failed';

/** The request record as the Request command carries it (ReplyRequested without the lease and timestamp). */
export type ReplyRequestFields = Omit<
  ReplyRequested['data'],
  'lease_owner' | 'lease_expires_at' | 'requested_at'
>;

export type ReplyRequestCommand =
  | { type: 'Request'; now_ms: number; lease_ms: number; lease_owner: string; request: ReplyRequestFields }
  | { type: 'Complete'; attempt: number; receipt: ReplyReceiptV2; now_ms: number }
  | {
      type: 'Fail';
      attempt: number;
      outcome: SystemStatus;
      assistant_message_persisted: boolean;
      now_ms: number;
      detail?: string;
    };

export type ReplyRequestState = {
  status: ReplyRequestStatus;
  /** The first request's record (original token provenance); null while status is `none`. */
  request: ReplyRequested['data'] | null;
  reply_id: number | null;
  fingerprint: string | null;
  key_kind: ReplyKeyKind | null;
  /** The token of the current attempt (the original one, or the reclaiming request's). */
  current_token_id: string | null;
  lease_owner: string | null;
  lease_expires_at_ms: number | null;
  /** 0 before the first request; 1 for it; +1 per reclaim. */
  attempt: number;
  /** The stored outcome of the last failed attempt (null unless status is `failed`). */
  outcome: ReplyOutcome | null;
  assistant_message_persisted: boolean;
  receipt: StoredReplyReceipt | null;
};

export type RepeatConflictCode =
  | 'reply_request_pending'
  | 'reply_request_failed_after_message'
  | 'idempotency_key_reused'
  | 'external_message_id_reused';

/** What a request with an identity that may have been seen before gets (spec §3 table). */
export type RepeatClassification =
  | { kind: 'new' }
  | { kind: 'conflict'; code: RepeatConflictCode; message: string }
  | { kind: 'replay'; receipt: ReplyReceiptV2 }
  | { kind: 'requires_regeneration' }
  /** The receipt was erased (its conversation's or a cited item's data key destroyed): it is gone for good. */
  | { kind: 'erased' }
  | { kind: 'reclaim' }
  | { kind: 'stored_failure'; outcome: ReplyOutcome };

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Classifies a request against the identity's stream. Order matters:
 * 1. no record → new;
 * 2. changed content (fingerprint differs) → 409 naming the reused key, whatever the state: evidence gathered for
 *    other content is never replayed;
 * 3. pending → 409 while the lease runs; reclaim once it expired (a crashed process, invariant 6);
 * 4. completed → an erased receipt (unreadable, reads as null) is no longer available; replay only a v2 receipt with every bound field and an intact hash; otherwise regeneration;
 * 5. failed after an assistant message was persisted → 409; a reclaimable stored outcome → reclaim; otherwise the
 *    stored typed result.
 */
export function classifyRepeat(
  state: ReplyRequestState,
  fingerprint: string,
  now_ms: number,
  /** Which of the caller's keys matched this request (names the 409); default: the request's own key kind. */
  matchedBy?: ReplyKeyKind,
): RepeatClassification {
  if (state.status === 'none') return { kind: 'new' };
  if (state.fingerprint !== fingerprint) {
    const key = matchedBy ?? state.key_kind ?? 'idempotency_key';
    return {
      kind: 'conflict',
      code: key === 'idempotency_key' ? 'idempotency_key_reused' : 'external_message_id_reused',
      message: `this ${key} was already used for a reply request with different content`,
    };
  }
  switch (state.status) {
    case 'pending':
      if (state.lease_expires_at_ms !== null && now_ms >= state.lease_expires_at_ms)
        return { kind: 'reclaim' };
      return {
        kind: 'conflict',
        code: 'reply_request_pending',
        message: 'a matching reply request is still in progress; retry later',
      };
    case 'completed':
      if (state.receipt === null) return { kind: 'erased' };
      return state.receipt && isReplayableReceiptV2(state.receipt)
        ? { kind: 'replay', receipt: state.receipt }
        : { kind: 'requires_regeneration' };
    case 'failed': {
      if (state.assistant_message_persisted) {
        return {
          kind: 'conflict',
          code: 'reply_request_failed_after_message',
          message: 'a matching reply request failed after its assistant message was stored',
        };
      }
      if (!state.outcome) throw new InternalError('failed reply request without an outcome');
      return isReclaimableOutcome(state.outcome.code)
        ? { kind: 'reclaim' }
        : { kind: 'stored_failure', outcome: state.outcome };
    }
  }
}

function requirePendingAttempt(state: ReplyRequestState, attempt: number): ReplyRequested['data'] {
  if (state.status !== 'pending' || !state.request) {
    throw new ConflictError('reply_request_not_pending', `the reply request is ${state.status}, not pending`);
  }
  if (attempt !== state.attempt) {
    throw new ConflictError(
      'reply_request_lease_lost',
      `attempt ${attempt} was taken over by attempt ${state.attempt}`,
    );
  }
  return state.request;
}

/** The receipt must bind this very request, attempt and provenance (a mismatch is a bug: 500). */
function checkReceipt(
  state: ReplyRequestState,
  request: ReplyRequested['data'],
  receipt: ReplyReceiptV2,
): void {
  const expected: Array<[string, unknown, unknown]> = [
    ['version', receipt.version, 2],
    ['request_fingerprint', receipt.request_fingerprint, request.fingerprint],
    ['identity_digest', receipt.identity_digest, request.identity_digest],
    ['reply_id', receipt.reply_id, request.reply_id],
    ['organization_id', receipt.organization_id, request.organization_id],
    ['connector_id', receipt.connector_id, request.connector_id],
    ['chatbot_id', receipt.chatbot_id, request.chatbot_id],
    ['original_token_id', receipt.original_token_id, request.token_id],
    ['current_token_id', receipt.current_token_id, state.current_token_id],
  ];
  const wrong = expected.filter(([, actual, wanted]) => actual !== wanted).map(([field]) => field);
  if (!verifyReceiptHash(receipt)) wrong.push('receipt_hash');
  if (wrong.length > 0)
    throw new InternalError(`receipt does not bind this reply request (${wrong.join(', ')})`);
}

export const replyRequestDecider: Decider<ReplyRequestCommand, ReplyRequestState, ReplyRequestEvent> = {
  initialState: () => ({
    status: 'none',
    request: null,
    reply_id: null,
    fingerprint: null,
    key_kind: null,
    current_token_id: null,
    lease_owner: null,
    lease_expires_at_ms: null,
    attempt: 0,
    outcome: null,
    assistant_message_persisted: false,
    receipt: null,
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'ReplyRequested':
        return {
          ...state,
          status: 'pending',
          request: event.data,
          reply_id: event.data.reply_id,
          fingerprint: event.data.fingerprint,
          key_kind: event.data.key_kind,
          current_token_id: event.data.token_id,
          lease_owner: event.data.lease_owner,
          lease_expires_at_ms: Date.parse(event.data.lease_expires_at),
          attempt: 1,
        };
      case 'ReplyRequestReclaimed':
        return {
          ...state,
          status: 'pending',
          current_token_id: event.data.token_id,
          lease_owner: event.data.lease_owner,
          lease_expires_at_ms: Date.parse(event.data.lease_expires_at),
          attempt: event.data.attempt,
          outcome: null,
        };
      case 'ReplyCompleted':
        return { ...state, status: 'completed', receipt: event.data.receipt, lease_expires_at_ms: null };
      case 'ReplyFailed':
        return {
          ...state,
          status: 'failed',
          outcome: event.data.outcome,
          assistant_message_persisted: event.data.assistant_message_persisted,
          lease_expires_at_ms: null,
        };
    }
  },

  decide(command, state) {
    if (command.type === 'Request') {
      const { now_ms, lease_ms, lease_owner, request } = command;
      const lease_expires_at = iso(now_ms + lease_ms);
      const verdict = classifyRepeat(state, request.fingerprint, now_ms);
      switch (verdict.kind) {
        case 'new':
          return [
            {
              type: 'ReplyRequested',
              data: { ...request, lease_owner, lease_expires_at, requested_at: iso(now_ms) },
            },
          ];
        case 'reclaim':
          return [
            {
              type: 'ReplyRequestReclaimed',
              data: {
                reply_id: state.reply_id as number,
                organization_id: state.request?.organization_id ?? request.organization_id,
                attempt: state.attempt + 1,
                token_id: request.token_id,
                lease_owner,
                lease_expires_at,
                reclaimed_at: iso(now_ms),
                previous_outcome: state.status === 'pending' ? 'lease_expired' : (state.outcome?.code ?? ''),
              },
            },
          ];
        case 'conflict':
          throw new ConflictError(
            verdict.code,
            verdict.message,
            verdict.code.endsWith('_reused')
              ? [
                  {
                    field: state.key_kind ?? 'idempotency_key',
                    message: 'reused with different request content',
                  },
                ]
              : [],
          );
        default:
          return [];
      }
    }
    const request = requirePendingAttempt(state, command.attempt);
    const ids = {
      reply_id: request.reply_id,
      organization_id: request.organization_id,
      attempt: state.attempt,
    };
    if (command.type === 'Complete') {
      checkReceipt(state, request, command.receipt);
      return [
        {
          type: 'ReplyCompleted',
          data: { ...ids, receipt: command.receipt, completed_at: iso(command.now_ms) },
        },
      ];
    }
    // Retry semantics come from the one outcome policy, whatever the caller passed (spec §4.6 rule 3); the caller's
    // delay counts only for rows that honour a provider's Retry-After, and only within the policy's bound.
    const outcome = systemStatus(
      command.outcome.code,
      command.outcome.trace_id,
      command.outcome.retry_after_ms,
    );
    return [
      {
        type: 'ReplyFailed',
        data: {
          ...ids,
          outcome,
          assistant_message_persisted: command.assistant_message_persisted,
          failed_at: iso(command.now_ms),
          ...(command.detail !== undefined ? { detail: command.detail } : {}),
        },
      },
    ];
  },
};
