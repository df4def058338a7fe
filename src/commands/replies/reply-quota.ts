import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { streams } from '../../events/domain-event';
import type { CommandContext } from '../shared/command-context';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { ReplyAbort } from './reply-abort';
import { quotaPeriod, quotaSlot, replyQuotaDecider, type ReplyQuotaCommand } from './reply-quota.decider';

/** One attempt's place in its organization's monthly quota. */
export interface QuotaHold {
  organization_id: number;
  period: string;
  reply_id: number;
  attempt: number;
}

/**
 * Every reply of an organization appends to one quota stream per month; concurrent appends conflict and decide
 * again, so the bound is generous.
 */
const QUOTA_APPEND_ATTEMPTS = 50;

/** The monthly reply plan limit (spec §7 `assistant_plan_limit_reached`), enforced across processes. */
@Injectable()
export class ReplyQuota {
  private readonly logger = new Logger('replies');

  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly clock: Clock,
  ) {}

  /**
   * Holds a slot for this attempt when the organization has a limit; throws `assistant_plan_limit_reached` when the
   * month's replies (completed plus in flight) reached it. Without a limit nothing is reserved, but the completed
   * reply is still counted (consume), so a limit set mid-month counts the month so far.
   */
  async reserve(
    attempt: Omit<QuotaHold, 'period'>,
    monthlyLimit: number | null,
    context: CommandContext,
  ): Promise<QuotaHold> {
    const hold = { ...attempt, period: quotaPeriod(this.clock.nowMs()) };
    if (monthlyLimit === null) return hold;
    const { state } = await this.apply(hold, { type: 'Reserve', monthly_limit: monthlyLimit }, context);
    if (!state.open.has(quotaSlot(hold.reply_id, hold.attempt))) {
      throw new ReplyAbort(
        'assistant_plan_limit_reached',
        `the organization's limit of ${monthlyLimit} replies in ${hold.period} is reached`,
      );
    }
    return hold;
  }

  /** The attempt's reply completed: its slot is used for good. Never fails the (already completed) reply. */
  async consume(hold: QuotaHold, context: CommandContext): Promise<void> {
    await this.settle(hold, { type: 'Consume' }, context);
  }

  /** The attempt failed (or its process died and it was reclaimed): the slot is given back. */
  async release(hold: QuotaHold, reason: string, context: CommandContext): Promise<void> {
    await this.settle(hold, { type: 'Release', reason }, context);
  }

  private async settle(
    hold: QuotaHold,
    command: { type: 'Consume' } | { type: 'Release'; reason: string },
    context: CommandContext,
  ): Promise<void> {
    try {
      await this.apply(hold, command, context);
    } catch (error) {
      // An open slot keeps counting until a later reclaim releases it: the quota errs towards the limit.
      this.logger.error(`quota ${command.type} for reply ${hold.reply_id} failed`, error as Error);
    }
  }

  private apply(
    hold: QuotaHold,
    command:
      { type: 'Reserve'; monthly_limit: number } | { type: 'Consume' } | { type: 'Release'; reason: string },
    context: CommandContext,
  ) {
    const full = { ...command, ...hold, now_ms: this.clock.nowMs() } as ReplyQuotaCommand;
    return this.executor.executeLatest(
      streams.replyQuota(hold.organization_id, hold.period),
      replyQuotaDecider,
      full,
      context,
      { organizationId: hold.organization_id, waitFor: [], maxAttempts: QUOTA_APPEND_ATTEMPTS },
    );
  }
}
