import { ConflictError } from '../../common/errors';
import type { ReplyClaimEvent, ReplyIdentityClaimed } from '../../events/replies/reply-claim.events';
import type { Decider } from '../shared/decider';

/**
 * The claim of one reply identity (an idempotency key or an external message id) on `reply-claim-{digest}`: the
 * request stream it belongs to. Pure.
 * - `Claim`: the first claim wins; claiming again for the same request records nothing; for another request it is
 *   refused (`reply_identity_claimed`: the caller re-resolves and finds the winner).
 * - `Redirect`: moves a claim whose request was never recorded (`from`, checked by the caller on the request
 *   stream) to the one that was; refused when the claim no longer points at `from`.
 */
export type ReplyClaimState = { request_digest: string | null };

export type ReplyClaimCommand =
  | { type: 'Claim'; claim: Omit<ReplyIdentityClaimed['data'], 'claimed_at'>; now_ms: number }
  | { type: 'Redirect'; organization_id: number; from: string; to: string; now_ms: number };

const iso = (ms: number): string => new Date(ms).toISOString();

export const replyClaimDecider: Decider<ReplyClaimCommand, ReplyClaimState, ReplyClaimEvent> = {
  initialState: () => ({ request_digest: null }),
  evolve: (_state, event) => ({ request_digest: event.data.request_digest }),
  decide(command, state) {
    if (command.type === 'Claim') {
      if (state.request_digest === command.claim.request_digest) return [];
      if (state.request_digest !== null)
        throw new ConflictError('reply_identity_claimed', 'this identity already belongs to another request');
      return [{ type: 'ReplyIdentityClaimed', data: { ...command.claim, claimed_at: iso(command.now_ms) } }];
    }
    if (state.request_digest === command.to) return [];
    if (state.request_digest !== command.from)
      throw new ConflictError('reply_identity_claimed', 'the claim moved since it was read');
    return [
      {
        type: 'ReplyIdentityRedirected',
        data: {
          organization_id: command.organization_id,
          from_request_digest: command.from,
          request_digest: command.to,
          redirected_at: iso(command.now_ms),
        },
      },
    ];
  },
};
