import type { DomainEvent } from '../domain-event';
import type { ReplyKeyKind } from './reply-request.events';

/**
 * Events of a reply identity claim stream, `reply-claim-{digest}` (streams.replyClaim): which reply request
 * (`reply-request-{request_digest}`) one idempotency key or one external message id belongs to. The first claim wins
 * the identity (expected revision "no stream"); a later event only redirects a claim whose request was never
 * recorded (its claimant lost a race or crashed) to the request that was.
 */
export type ReplyIdentityClaimed = DomainEvent<
  'ReplyIdentityClaimed',
  {
    organization_id: number;
    connector_id: number;
    chatbot_id: number;
    key_kind: ReplyKeyKind;
    key: string;
    /** The digest naming the request stream this identity belongs to. */
    request_digest: string;
    claimed_at: string;
  }
>;

export type ReplyIdentityRedirected = DomainEvent<
  'ReplyIdentityRedirected',
  {
    organization_id: number;
    /** The request the claim pointed to, which was never recorded. */
    from_request_digest: string;
    request_digest: string;
    redirected_at: string;
  }
>;

export type ReplyClaimEvent = ReplyIdentityClaimed | ReplyIdentityRedirected;
