import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { RateLimitedError } from '../../common/errors';
import type { CairnConfig, RateLimitClass } from '../../config/config';
import { CONFIG } from '../../core.module';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { rateLimitRefusals } from '../../observability/metrics';

/** The limits are per minute. */
export const RATE_WINDOW_MS = 60_000;

/**
 * Connector rate limits (docs/operations.md): each connector token has a budget per capability class and minute.
 * The count lives in the read store (`hitCounter`: one atomic upsert per request; fixed one-minute windows on the
 * server's clock), so
 * every process sharing the store — CAIRN_HTTP_WORKERS workers, several servers on one MongoDB — shares it.
 */
@Injectable()
export class ConnectorRateLimiter {
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
    const count = await this.readStore.hitCounter(`rate:${rateClass}:${tokenId}`, windowStart);
    if (count <= limit) return;
    rateLimitRefusals.inc({ limit: rateClass });
    throw new RateLimitedError(
      `too many ${rateClass} requests for this token: at most ${limit} per minute; retry later`,
      (windowStart + RATE_WINDOW_MS - now) / 1000,
    );
  }
}
