import { replyClaimDecider, type ReplyClaimCommand } from '../../../src/commands/replies/reply-claim.decider';
import type { ReplyClaimEvent } from '../../../src/events/replies/reply-claim.events';
import { givenDecider } from '../../support/decider-spec';

const T0 = Date.parse('2026-11-24T10:00:00.000Z');
const iso = new Date(T0).toISOString();
const claimData = {
  organization_id: 1,
  connector_id: 2,
  chatbot_id: 3,
  key_kind: 'idempotency_key' as const,
  key: 'K1',
  request_digest: 'a'.repeat(64),
};
const claim = (request_digest: string): ReplyClaimCommand => ({
  type: 'Claim',
  claim: { ...claimData, request_digest },
  now_ms: T0,
});
const claimed = (request_digest: string): ReplyClaimEvent => ({
  type: 'ReplyIdentityClaimed',
  data: { ...claimData, request_digest, claimed_at: iso },
});
const redirect = (from: string, to: string): ReplyClaimCommand => ({
  type: 'Redirect',
  organization_id: 1,
  from,
  to,
  now_ms: T0,
});
const given = givenDecider(replyClaimDecider);

describe('reply identity claim decider', () => {
  it('the first claim wins the identity; the same claim again records nothing', () => {
    given([])
      .when(claim('A'))
      .then([claimed('A')]);
    given([claimed('A')])
      .when(claim('A'))
      .then([]);
  });

  it('a claim for another request is refused: the caller re-resolves and finds the winner', () => {
    given([claimed('A')])
      .when(claim('B'))
      .thenThrows('reply_identity_claimed');
  });

  it('a redirect moves a claim only from the request it names', () => {
    given([claimed('A')])
      .when(redirect('A', 'B'))
      .then([
        {
          type: 'ReplyIdentityRedirected',
          data: { organization_id: 1, from_request_digest: 'A', request_digest: 'B', redirected_at: iso },
        },
      ]);
    given([claimed('A')])
      .when(redirect('C', 'B'))
      .thenThrows('reply_identity_claimed');
    given([claimed('A')])
      .when(redirect('A', 'A'))
      .then([]);
    expect(
      [claimed('A'), ...replyClaimDecider.decide(redirect('A', 'B'), { request_digest: 'A' })].reduce(
        replyClaimDecider.evolve,
        replyClaimDecider.initialState(),
      ),
    ).toEqual({ request_digest: 'B' });
  });
});
