import { Injectable } from '@nestjs/common';
import { AppError, ConflictError } from '../../common/errors';
import type { DomainEvent } from '../../events/domain-event';
import type { CommandContext } from './command-context';
import type { Decider } from './decider';
import { StreamCommandExecutor } from './stream-command-executor';

/**
 * One retry identity's claim stream (reply requests: `reply-claim-{digest}`; feedback: `reply-feedback-claim-{digest}`):
 * its first event names the record stream the identity belongs to. The first claim wins (the stream does not exist
 * yet, so its append expects "no stream"); without a multi-stream transaction, this is what makes "either key
 * identifies the record" hold across processes and on every event store. Pure.
 * - `Claim`: claiming again for the same target records nothing; for another target it is refused (`conflictCode`:
 *   the caller re-resolves and finds the winner).
 * - `Redirect`: moves a claim from `from` (whose record was never written, checked by the caller) to `to`; refused
 *   when the claim no longer points at `from`.
 */
export type IdentityClaimState = { target: string | null };

export type IdentityClaimCommand<E> =
  { type: 'Claim'; target: string; event: E } | { type: 'Redirect'; from: string; to: string; event: E };

export function identityClaimDecider<E extends DomainEvent>(spec: {
  conflictCode: string;
  /** The record stream digest an event of this claim stream points at. */
  targetOf: (event: E) => string;
}): Decider<IdentityClaimCommand<E>, IdentityClaimState, E> {
  return {
    initialState: () => ({ target: null }),
    evolve: (_state, event) => ({ target: spec.targetOf(event) }),
    decide(command, state) {
      if (command.type === 'Claim') {
        if (state.target === command.target) return [];
        if (state.target !== null)
          throw new ConflictError(spec.conflictCode, 'this identity already belongs to another record');
        return [command.event];
      }
      if (state.target === command.to) return [];
      if (state.target !== command.from)
        throw new ConflictError(spec.conflictCode, 'the claim moved since it was read');
      return [command.event];
    },
  };
}

/** Writes claims: true when the identity now points where the command says, false when another writer won it. */
@Injectable()
export class IdentityClaimWriter {
  constructor(private readonly executor: StreamCommandExecutor) {}

  async decide<C, S, E extends DomainEvent>(
    stream: string,
    decider: Decider<C, S, E>,
    command: C,
    conflictCode: string,
    organizationId: number,
    context: CommandContext,
  ): Promise<boolean> {
    try {
      // Acknowledged once committed, not synced: the record appended after it is synced, and what survives a crash
      // is a prefix of the commits, so a claim is never lost while its record stands (and a claim lost with no
      // record written is simply claimed again).
      await this.executor.execute(stream, decider, command, context, {
        organizationId,
        waitFor: [],
        durability: 'committed',
      });
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === conflictCode) return false;
      throw error;
    }
  }
}
