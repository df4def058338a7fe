import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../common/clock';
import type { CairnConfig } from '../../config/config';
import { CONFIG } from '../../core.module';
import { ConflictError } from '../../common/errors';
import { IdGenerator } from '../../common/id-generator';
import { streams } from '../../events/domain-event';
import type { ConnectorPrincipal } from '../../http/auth/connector-principal';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { systemStatus } from './outcome-policy';
import type { ReplyKeyKind, ReplyRequested } from '../../events/replies/reply-request.events';
import { ReplyAbort } from './reply-abort';
import { log } from '../../observability/log';
import { recordReplyOutcome } from '../../observability/reply-outcomes';
import { ReplyCancellation } from './reply-cancellation';
import { ReplyGate } from './reply-gate';
import { ReplyQuota, type QuotaHold } from './reply-quota';
import { quotaPeriod } from './reply-quota.decider';
import { legacyRequestFingerprint, replyIdentities, requestFingerprint } from './reply-identity';
import { ReplyClaims } from './reply-claims';
import { ReplyChatbots } from './reply-chatbots';
import { classifyRepeat, replyRequestDecider, type ReplyRequestState } from './reply-request.decider';
import { successBody, systemStatusBody } from './reply-response';
import { ReplyRun } from './reply-run';
import { RequestReplyCommand, type ReplyResultBody } from './request-reply.command';

/**
 * Spec §4.6 and the §3 table: one request record per idempotency identity, decided on its own stream. The
 * winner of a new (or reclaimed) request runs it and records the outcome; everyone else gets a replay, the stored
 * outcome or a 409, from the stream.
 */
@CommandHandler(RequestReplyCommand)
export class RequestReplyHandler implements ICommandHandler<RequestReplyCommand, ReplyResultBody> {
  private readonly owner = `replies:${process.pid}:${randomUUID()}`;

  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly run: ReplyRun,
    private readonly gate: ReplyGate,
    private readonly quota: ReplyQuota,
    private readonly cancellation: ReplyCancellation,
    private readonly claims: ReplyClaims,
    private readonly chatbots: ReplyChatbots,
    @Inject(CONFIG) private readonly config: Pick<CairnConfig, 'replyLeaseMs'>,
  ) {}

  async execute(command: RequestReplyCommand): Promise<ReplyResultBody> {
    const { connector, input, context } = command;
    const chatbot = await this.chatbots.resolve(connector, input);
    const scope = {
      organization_id: connector.organization_id,
      connector_id: connector.connector_id,
      chatbot_id: chatbot.chatbot_id,
    };
    const identities = replyIdentities({
      ...scope,
      idempotency_key: input.idempotency_key,
      external_message_id: input.external_message_id,
    });
    const content = {
      chatbot_id: chatbot.chatbot_id,
      external_thread_id: input.external_thread_id,
      external_message_id: input.external_message_id ?? null,
      idempotency_key: input.idempotency_key ?? null,
      channel: input.channel ?? null,
      response_mode: input.response_mode ?? null,
      payload: input.payload as unknown as Record<string, unknown>,
    };
    // A request recorded before fingerprint version 2 carries the legacy fingerprint (retry keys included).
    const fingerprint = requestFingerprint(content);
    const fingerprintFor = (state: ReplyRequestState): string =>
      state.fingerprint !== null &&
      state.fingerprint !== fingerprint &&
      state.fingerprint === legacyRequestFingerprint(content)
        ? state.fingerprint
        : fingerprint;
    // Either key identifies the request (spec §3): resolve (and claim) before anything is recorded; changed content
    // is refused before any claim is written.
    const resolved = await this.claims.resolve(
      identities,
      scope,
      content.external_message_id,
      context,
      (state, matchedBy) => {
        const verdict = classifyRepeat(
          state,
          fingerprintFor(state),
          this.clock.nowMs(),
          matchedBy ?? undefined,
        );
        if (verdict.kind === 'conflict' && verdict.code.endsWith('_reused'))
          throw new ConflictError(verdict.code, verdict.message);
      },
    );
    const stream = streams.replyRequest(resolved.digest);
    const loaded = resolved.loaded;
    const matching = fingerprintFor(loaded.state);
    const matchedBy = resolved.matchedBy ?? undefined;
    const early = await this.answerRepeat(loaded.state, matching, connector, input.payload.text, matchedBy);
    if (early) return early;
    const identity = identities.find((i) => i.digest === resolved.digest) ?? identities[0];

    const reply_id = loaded.state.reply_id ?? (await this.ids.next('reply'));
    // A concurrent same-identity request makes this append fail; deciding again on the fresh stream turns the
    // loser into a 409 (pending) or a replay (completed).
    const requested = await this.executor.executeOn(
      stream,
      replyRequestDecider,
      loaded,
      {
        type: 'Request',
        now_ms: this.clock.nowMs(),
        lease_ms: this.config.replyLeaseMs,
        lease_owner: this.owner,
        request: {
          reply_id,
          organization_id: connector.organization_id,
          connector_id: connector.connector_id,
          chatbot_id: chatbot.chatbot_id,
          identity_digest: resolved.digest,
          key_kind: identity.key_kind,
          key: identity.key,
          fingerprint: matching,
          external_thread_id: input.external_thread_id,
          external_message_id: input.external_message_id ?? null,
          token_id: connector.token_id,
        },
      },
      context,
      { organizationId: connector.organization_id, waitFor: [] },
    );
    if (requested.events.length === 0) {
      const again = await this.answerRepeat(
        requested.state,
        matching,
        connector,
        input.payload.text,
        matchedBy,
      );
      if (again) return again;
      throw new ConflictError('reply_request_pending', 'a request with this identity is in progress');
    }
    const attempt = requested.state.attempt;
    const request = requested.state.request;
    if (!request) throw new Error('reply request state without its request');
    const reclaimed = requested.events.find((e) => e.type === 'ReplyRequestReclaimed');
    return this.cancellation.track((signal) =>
      this.runAttempt({
        stream,
        attempt,
        request,
        fingerprint: matching,
        chatbot_id: chatbot.chatbot_id,
        command,
        signal,
        crashedAttempt: reclaimed?.data.previous_outcome === 'lease_expired' ? attempt - 1 : null,
      }),
    );
  }

  /** Runs an attempt this process won, and records how it ended (Complete or Fail, naming the attempt). */
  private async runAttempt(args: {
    stream: string;
    attempt: number;
    request: ReplyRequested['data'];
    fingerprint: string;
    chatbot_id: number;
    command: RequestReplyCommand;
    signal: AbortSignal;
    /** The attempt whose process died holding the lease (its quota slot is given back), or null. */
    crashedAttempt: number | null;
  }): Promise<ReplyResultBody> {
    const { stream, attempt, request, chatbot_id, signal } = args;
    const { connector, input, context } = args.command;
    const organization_id = connector.organization_id;
    const reply_id = request.reply_id;
    const options = { organizationId: organization_id, waitFor: [] };
    let hold: QuotaHold | null = null;
    let assistantMessageStored = false;
    const started = performance.now();
    const outcomeOf = (code: string) => ({
      request_id: context.correlation_id,
      code,
      reply_id,
      organization_id,
      connector_id: connector.connector_id,
      attempt,
      latencyMs: performance.now() - started,
    });
    try {
      if (args.crashedAttempt !== null) {
        await this.quota.release(
          {
            organization_id,
            reply_id,
            attempt: args.crashedAttempt,
            period: quotaPeriod(this.clock.nowMs()),
          },
          'lease_expired',
          context,
        );
      }
      const gate = await this.gate.check(organization_id, chatbot_id);
      if (gate.paused !== null) throw new ReplyAbort(gate.paused, `${gate.paused.replaceAll('_', ' ')}`);
      hold = await this.quota.reserve(
        { organization_id, reply_id, attempt },
        gate.monthly_reply_limit,
        context,
      );
      const receipt = await this.run.run({
        connector,
        chatbot_id,
        input,
        request,
        fingerprint: args.fingerprint,
        signal,
        context,
        stillOwner: async () => {
          const { state } = await this.executor.load(stream, replyRequestDecider);
          return state.status === 'pending' && state.attempt === attempt;
        },
      });
      assistantMessageStored = true;
      await this.executor.execute(
        stream,
        replyRequestDecider,
        { type: 'Complete', attempt, receipt, now_ms: this.clock.nowMs() },
        context,
        options,
      );
      await this.quota.consume(hold, context);
      recordReplyOutcome(outcomeOf('completed'));
      return successBody(receipt, false);
    } catch (error) {
      const abort =
        error instanceof ReplyAbort ? error : new ReplyAbort('assistant_runtime_failed', String(error));
      if (!(error instanceof ReplyAbort)) {
        const fields = { context: 'replies', request_id: context.correlation_id, reply_id, err: error };
        log().error(fields, `reply ${reply_id} failed`);
      }
      if (hold) await this.quota.release(hold, abort.code, context);
      const persisted = assistantMessageStored || abort.assistantMessagePersisted;
      const outcome = systemStatus(abort.code, null, abort.providerRetryAfterMs);
      recordReplyOutcome(outcomeOf(abort.code));
      await this.executor.execute(
        stream,
        replyRequestDecider,
        {
          type: 'Fail',
          attempt,
          outcome,
          assistant_message_persisted: persisted,
          now_ms: this.clock.nowMs(),
          detail: abort.detail.slice(0, 2000),
        },
        context,
        options,
      );
      if (persisted) {
        throw new ConflictError(
          'reply_request_failed_after_message',
          'this reply request failed after its assistant message was stored',
        );
      }
      return systemStatusBody(outcome, reply_id);
    }
  }

  /** What a repeated request gets without running anything; null when it must run (new or reclaimed). */
  private async answerRepeat(
    state: ReplyRequestState,
    fingerprint: string,
    connector: ConnectorPrincipal,
    /** The repeated request's latest message (the same as the original's: the fingerprint matched). */
    question: string,
    matchedBy?: ReplyKeyKind,
  ): Promise<ReplyResultBody | null> {
    const verdict = classifyRepeat(state, fingerprint, this.clock.nowMs(), matchedBy);
    switch (verdict.kind) {
      case 'new':
      case 'reclaim':
        return null;
      case 'conflict':
        throw new ConflictError(verdict.code, verdict.message);
      case 'stored_failure':
        return systemStatusBody(verdict.outcome, state.reply_id, true);
      case 'requires_regeneration':
        return systemStatusBody(systemStatus('completed_reply_requires_regeneration', null), state.reply_id);
      case 'erased':
        return systemStatusBody(systemStatus('completed_reply_no_longer_available', null), state.reply_id);
      case 'replay': {
        const checked = await this.run.revalidate(verdict.receipt, connector, question);
        if ('refused' in checked) {
          const { code, reason } = checked.refused;
          log().info(
            { context: 'replies', reply_id: state.reply_id, code, reason },
            'completed reply not replayed',
          );
          return systemStatusBody(systemStatus(code, null), state.reply_id);
        }
        return successBody(checked.receipt, true);
      }
    }
  }
}
