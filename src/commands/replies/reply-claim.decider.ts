import type { ReplyClaimEvent, ReplyIdentityClaimed } from '../../events/replies/reply-claim.events';
import type { Decider } from '../shared/decider';
import { identityClaimDecider, type IdentityClaimCommand } from '../shared/identity-claim';

/**
 * The claim of one reply identity (an idempotency key or an external message id) on `reply-claim-{digest}`: the
 * request stream it belongs to (the shared first-claim-wins decider, shared/identity-claim.ts). Pure.
 * - `Claim`: the first claim wins; claiming again for the same request records nothing; for another request it is
 *   refused (`reply_identity_claimed`: the caller re-resolves and finds the winner).
 * - `Redirect`: moves a claim whose request was never recorded (`from`, checked by the caller on the request
 *   stream) to the one that was; refused when the claim no longer points at `from`.
 */
export type ReplyClaimState = { request_digest: string | null };

export type ReplyClaimCommand =
  | { type: 'Claim'; claim: Omit<ReplyIdentityClaimed['data'], 'claimed_at'>; now_ms: number }
  | { type: 'Redirect'; organization_id: number; from: string; to: string; now_ms: number };

export const REPLY_CLAIM_CONFLICT = 'reply_identity_claimed';

const iso = (ms: number): string => new Date(ms).toISOString();

const claims = identityClaimDecider<ReplyClaimEvent>({
  conflictCode: REPLY_CLAIM_CONFLICT,
  targetOf: (event) => event.data.request_digest,
});

function generic(command: ReplyClaimCommand): IdentityClaimCommand<ReplyClaimEvent> {
  if (command.type === 'Claim') {
    const data = { ...command.claim, claimed_at: iso(command.now_ms) };
    return { type: 'Claim', target: data.request_digest, event: { type: 'ReplyIdentityClaimed', data } };
  }
  const data = {
    organization_id: command.organization_id,
    from_request_digest: command.from,
    request_digest: command.to,
    redirected_at: iso(command.now_ms),
  };
  return {
    type: 'Redirect',
    from: command.from,
    to: command.to,
    event: { type: 'ReplyIdentityRedirected', data },
  };
}

export const replyClaimDecider: Decider<ReplyClaimCommand, ReplyClaimState, ReplyClaimEvent> = {
  initialState: () => ({ request_digest: null }),
  evolve: (state, event) => ({
    request_digest: claims.evolve({ target: state.request_digest }, event).target,
  }),
  decide: (command, state) => claims.decide(generic(command), { target: state.request_digest }),
};
