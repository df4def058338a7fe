import type { DomainEvent } from '../domain-event';

/**
 * The monthly reply quota of an organization, on `reply-quota-{organization}-{YYYY-MM}` (streams.replyQuota), one
 * stream per organization and UTC calendar month. A reply attempt holds a slot while it runs (Reserved); the slot is
 * given back when the attempt fails (Released) and kept when it completes (Consumed). Completed replies are
 * consumed whether or not a limit is set, so a limit set mid-month counts the month's replies so far.
 *
 * `slot` names one attempt of one reply (`{reply_id}:{attempt}`), so a reclaim never counts a reply twice.
 */
type QuotaSlot = { organization_id: number; period: string; slot: string; reply_id: number };

export type ReplyQuotaReserved = DomainEvent<
  'ReplyQuotaReserved',
  QuotaSlot & { monthly_limit: number; reserved_at: string }
>;

export type ReplyQuotaReleased = DomainEvent<
  'ReplyQuotaReleased',
  QuotaSlot & { reason: string; released_at: string }
>;

export type ReplyQuotaConsumed = DomainEvent<'ReplyQuotaConsumed', QuotaSlot & { consumed_at: string }>;

export type ReplyQuotaEvent = ReplyQuotaReserved | ReplyQuotaReleased | ReplyQuotaConsumed;
