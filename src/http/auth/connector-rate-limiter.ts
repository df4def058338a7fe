import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { RateLimitedError } from '../../common/errors';
import type { CairnConfig, RateLimitClass } from '../../config/config';
import { CONFIG } from '../../core.module';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { rateLimitRefusals } from '../../observability/metrics';

/** The limits are per minute. */
export const RATE_WINDOW_MS = 60_000;

/** A lease is a fiftieth of the minute's budget, 1 to MAX_LEASE requests. */
const LEASE_SHARE = 50;
const MAX_LEASE = 100;

/** How many requests one process claims from the shared count at a time, for a budget of `limit`. */
export function leaseSize(limit: number): number {
  return Math.min(MAX_LEASE, Math.max(1, Math.floor(limit / LEASE_SHARE)));
}

/** What this process holds of one token's budget in one window. */
interface Lease {
  windowStart: number;
  /** Requests this process may still accept without asking the store. */
  remaining: number;
  /** The shared count has reached the limit: refuse until the window ends, without asking again. */
  spent: boolean;
}

/**
 * Connector rate limits (docs/operations.md#rate-limits): each connector token has a budget per capability class
 * and minute (fixed one-minute windows on the server's clock). The count lives in the read store, so every
 * process sharing it — CAIRN_HTTP_WORKERS workers, several servers on one MongoDB — shares the budget. A process
 * does not count each request there: it claims a lease of `leaseSize(limit)` requests (one atomic `hitCounter`
 * of that many hits) and spends it locally, claiming again when it is used up. The shared count covers every
 * lease, so all processes together never accept more than the limit; a process may refuse while another still
 * holds part of a lease (at most `leaseSize - 1` requests per other process, under 2% of the budget).
 */
@Injectable()
export class ConnectorRateLimiter {
  private readonly leases = new Map<string, Lease>();
  /** The window whose start last dropped the leases of earlier ones. */
  private sweptWindow = 0;

  constructor(
    @Inject(CONFIG) private readonly config: CairnConfig,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly clock: Clock,
  ) {}

  /** Counts one request of `tokenId` in `rateClass`; throws 429 `rate_limited` once the minute's budget is spent. */
  async hit(tokenId: string, rateClass: RateLimitClass): Promise<void> {
    const limit = this.config.connectorRateLimits[rateClass];
    if (limit === 0) return;
    const now = this.clock.nowMs();
    const windowStart = Math.floor(now / RATE_WINDOW_MS) * RATE_WINDOW_MS;
    const key = `rate:${rateClass}:${tokenId}`;
    let lease = this.leases.get(key);
    if (lease === undefined || lease.windowStart !== windowStart) {
      this.forgetEndedWindows(windowStart);
      lease = { windowStart, remaining: 0, spent: false };
      this.leases.set(key, lease);
    }
    if (lease.remaining === 0 && !lease.spent) {
      const claim = leaseSize(limit);
      const count = await this.readStore.hitCounter(key, windowStart, claim);
      // The hits of this claim that are within the budget (all of them, some, or none).
      const granted = Math.max(0, Math.min(claim, limit - (count - claim)));
      lease.remaining += granted;
      if (count >= limit) lease.spent = true;
    }
    if (lease.remaining > 0) {
      lease.remaining--;
      return;
    }
    rateLimitRefusals.inc({ limit: rateClass });
    throw new RateLimitedError(
      `too many ${rateClass} requests for this token: at most ${limit} per minute; retry later`,
      (windowStart + RATE_WINDOW_MS - now) / 1000,
    );
  }

  /** Leases of earlier windows are worthless: dropped so the map holds only this minute's tokens. */
  private forgetEndedWindows(windowStart: number): void {
    if (windowStart <= this.sweptWindow) return;
    this.sweptWindow = windowStart;
    for (const [key, lease] of this.leases) if (lease.windowStart < windowStart) this.leases.delete(key);
  }
}
