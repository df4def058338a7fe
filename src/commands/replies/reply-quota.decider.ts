import type { ReplyQuotaEvent } from '../../events/replies/reply-quota.events';
import type { Decider } from '../shared/decider';

/**
 * The monthly reply quota of one organization (spec §7 `assistant_plan_limit_reached`), decided on its own stream
 * so concurrent replies of any process cannot overrun it: a slot is reserved before a run, consumed when the reply
 * completes and released when the attempt fails. `used` = consumed + open reservations.
 *
 * A slot is `{reply_id}:{attempt}`. Each attempt reserves once (before its run), then either consumes (after its
 * reply completed) or releases (after it failed); a retried append decides again on the fresh stream. An attempt
 * whose process died keeps its slot open, so it still counts, until the reclaiming attempt releases it. Only open
 * slots are kept in state, so folding a busy month stays linear.
 */

type SlotRef = { organization_id: number; period: string; reply_id: number; attempt: number };

export type ReplyQuotaCommand =
  | ({ type: 'Reserve'; monthly_limit: number; now_ms: number } & SlotRef)
  | ({ type: 'Release'; reason: string; now_ms: number } & SlotRef)
  | ({ type: 'Consume'; now_ms: number } & SlotRef);

export type ReplyQuotaState = {
  consumed: number;
  /** Reserved slots not yet consumed or released (in-flight attempts, or attempts whose process died). */
  open: ReadonlySet<string>;
};

export const quotaSlot = (reply_id: number, attempt: number): string => `${reply_id}:${attempt}`;

/** Slots counted against the limit. */
export const quotaUsed = (state: ReplyQuotaState): number => state.consumed + state.open.size;

/** UTC calendar month of an instant, `YYYY-MM`: the quota period. */
export const quotaPeriod = (now_ms: number): string => new Date(now_ms).toISOString().slice(0, 7);

const iso = (ms: number): string => new Date(ms).toISOString();

function without(set: ReadonlySet<string>, slot: string): ReadonlySet<string> {
  const next = new Set(set);
  next.delete(slot);
  return next;
}

export const replyQuotaDecider: Decider<ReplyQuotaCommand, ReplyQuotaState, ReplyQuotaEvent> = {
  initialState: () => ({ consumed: 0, open: new Set() }),

  evolve(state, event) {
    const { slot } = event.data;
    switch (event.type) {
      case 'ReplyQuotaReserved':
        return { ...state, open: new Set(state.open).add(slot) };
      case 'ReplyQuotaReleased':
        return { ...state, open: without(state.open, slot) };
      case 'ReplyQuotaConsumed':
        return { consumed: state.consumed + 1, open: without(state.open, slot) };
    }
  },

  /** Reserve returns [] when the slot is already open or the quota is used up: the caller checks `open`. */
  decide(command, state) {
    const { organization_id, period, reply_id } = command;
    const slot = quotaSlot(reply_id, command.attempt);
    const ids = { organization_id, period, slot, reply_id };
    switch (command.type) {
      case 'Reserve':
        if (state.open.has(slot)) return [];
        if (quotaUsed(state) >= command.monthly_limit) return [];
        return [
          {
            type: 'ReplyQuotaReserved',
            data: { ...ids, monthly_limit: command.monthly_limit, reserved_at: iso(command.now_ms) },
          },
        ];
      case 'Release':
        if (!state.open.has(slot)) return [];
        return [
          {
            type: 'ReplyQuotaReleased',
            data: { ...ids, reason: command.reason.slice(0, 200), released_at: iso(command.now_ms) },
          },
        ];
      case 'Consume':
        return [{ type: 'ReplyQuotaConsumed', data: { ...ids, consumed_at: iso(command.now_ms) } }];
    }
  },
};
