import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { ConflictError } from '../../common/errors';
import { streams } from '../../events/domain-event';
import type { CommandContext } from '../shared/command-context';
import { StreamCommandExecutor, type Loaded } from '../shared/stream-command-executor';
import { IdentityClaimWriter } from '../shared/identity-claim';
import { REPLY_CLAIM_CONFLICT, replyClaimDecider, type ReplyClaimCommand } from './reply-claim.decider';
import type { ReplyIdentity } from './reply-identity';
import { replyRequestDecider, type ReplyRequestState } from './reply-request.decider';

/** Scope of a request's identities. */
export type ClaimScope = { organization_id: number; connector_id: number; chatbot_id: number };

/** The request a set of identities belongs to. */
export interface ResolvedRequest {
  /** Names the request stream (`reply-request-{digest}`). */
  digest: string;
  /** Which of the caller's keys matched an earlier request (null: a new request). */
  matchedBy: ReplyIdentity['key_kind'] | null;
  /** The request stream as read while resolving (its state, revision and events). */
  loaded: Loaded<ReplyRequestState>;
}

const MAX_ROUNDS = 5;

/**
 * Spec §3 and invariant 7 (one request, one reply): an idempotency key and an external message id EACH identify a
 * reply request, across processes and on every event store, without a multi-stream transaction. Each identity has a
 * claim stream (`reply-claim-{digest}`) whose first event names the request stream it belongs to; the first append
 * with expected revision "no stream" wins it.
 *
 * Resolution, in rounds until stable:
 * 1. read each identity's claim (a request recorded before claims existed is found on the stream named by its own
 *    identity);
 * 2. the key and the message id pointing at two requests: the message id's claim is never moved (its request may
 *    be in progress in another process); the key's claim is redirected to it while the key's own request was never
 *    recorded (its claimant lost the race or crashed), else → 409 `external_message_id_reused`;
 * 3. a caller key that contradicts the request it matched (the idempotency key names a request for another
 *    external message id) → 409 `idempotency_key_reused`; so does other content (the caller's `accept`), before any
 *    claim is written: a refused request records nothing;
 * 4. unclaimed identities are claimed for the request (a new request: the primary identity's stream), in a fixed
 *    order (idempotency key, then message id); losing a claim starts the next round, which then finds the winner.
 * Crash safety: claims are written before the request record, so a crash between the steps leaves claims pointing
 * at a request stream that does not exist yet; the same request resolves to it and records it (resumes).
 */
@Injectable()
export class ReplyClaims {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly clock: Clock,
    private readonly writer: IdentityClaimWriter,
  ) {}

  /** Where each identity points now: its claim, else a pre-claim request on its own stream, else null. */
  async targets(identities: readonly ReplyIdentity[]): Promise<Array<string | null>> {
    return Promise.all(
      identities.map(async (identity) => {
        const claim = await this.executor.load(streams.replyClaim(identity.digest), replyClaimDecider);
        if (claim.state.request_digest !== null) return claim.state.request_digest;
        const legacy = await this.request(identity.digest);
        return legacy.status === 'none' ? null : identity.digest;
      }),
    );
  }

  async resolve(
    identities: readonly ReplyIdentity[],
    scope: ClaimScope,
    externalMessageId: string | null,
    context: CommandContext,
    /** Throws (a 409) when the request found cannot be this one (changed content): runs before any claim. */
    accept: (state: ReplyRequestState, matchedBy: ReplyIdentity['key_kind'] | null) => void,
  ): Promise<ResolvedRequest> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const targets = await this.targets(identities);
      const known = [...new Set(targets.filter((t): t is string => t !== null))];
      // With two identities (key, then message id) pointing at two requests: the message id's claim is never moved
      // (it is the caller's fact about the outside world, and its request may be in progress in another process);
      // the key's claim moves to it only while the key's own request was never recorded (its claimant lost the
      // race or crashed). A key whose request was recorded makes the pair a conflict.
      let digest = known[0] ?? identities[0].digest;
      if (known.length > 1) {
        if ((await this.request(known[0])).status !== 'none') {
          throw new ConflictError(
            'external_message_id_reused',
            'this external_message_id already belongs to a reply request under another idempotency key',
          );
        }
        digest = known[1];
      }
      const matchedAt = targets.findIndex((t) => t !== null);
      const matchedBy = matchedAt < 0 ? null : identities[matchedAt].key_kind;
      const loaded = await this.executor.load(streams.replyRequest(digest), replyRequestDecider);
      const state = loaded.state;
      const stored = state.request;
      if (
        stored &&
        matchedBy === 'idempotency_key' &&
        externalMessageId !== null &&
        stored.external_message_id !== null &&
        stored.external_message_id !== externalMessageId
      ) {
        throw new ConflictError(
          'idempotency_key_reused',
          'this idempotency_key was already used for a reply request about another external message',
        );
      }
      accept(state, matchedBy);
      let settled = true;
      for (const [i, identity] of identities.entries()) {
        const target = targets[i];
        if (target === digest) continue;
        const ok =
          target === null
            ? await this.claim(identity, scope, digest, context)
            : await this.redirect(identity, scope.organization_id, target, digest, context);
        if (!ok) {
          settled = false;
          break;
        }
      }
      if (settled) return { digest, matchedBy, loaded };
    }
    throw new ConflictError(
      'reply_request_pending',
      'a matching reply request is being recorded; retry later',
    );
  }

  private async request(digest: string): Promise<ReplyRequestState> {
    return (await this.executor.load(streams.replyRequest(digest), replyRequestDecider)).state;
  }

  /** True when the identity now belongs to `digest`; false when another request won it first. */
  private async claim(
    identity: ReplyIdentity,
    scope: ClaimScope,
    digest: string,
    context: CommandContext,
  ): Promise<boolean> {
    const claim = { ...scope, key_kind: identity.key_kind, key: identity.key, request_digest: digest };
    return this.decided(
      identity,
      { type: 'Claim', claim, now_ms: this.clock.nowMs() },
      scope.organization_id,
      context,
    );
  }

  private async redirect(
    identity: ReplyIdentity,
    organization_id: number,
    from: string,
    to: string,
    context: CommandContext,
  ): Promise<boolean> {
    const command = { type: 'Redirect' as const, organization_id, from, to, now_ms: this.clock.nowMs() };
    return this.decided(identity, command, organization_id, context);
  }

  private async decided(
    identity: ReplyIdentity,
    command: ReplyClaimCommand,
    organizationId: number,
    context: CommandContext,
  ): Promise<boolean> {
    return this.writer.decide(
      streams.replyClaim(identity.digest),
      replyClaimDecider,
      command,
      REPLY_CLAIM_CONFLICT,
      organizationId,
      context,
    );
  }
}
