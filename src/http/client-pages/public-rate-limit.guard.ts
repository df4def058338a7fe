import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import { RateLimitedError } from '../../common/errors';
import { rateLimitRefusals } from '../../observability/metrics';

/**
 * Limits the public client pages per client IP (`CAIRN_PUBLIC_RATE_LIMIT` requests per minute, shared by the
 * API, the HTML pages and the stylesheet). Past the limit it throws the typed RateLimitedError carrying the
 * exact wait, which the error mapping turns into 429 with `Retry-After`.
 */
@Injectable()
export class PublicRateLimitGuard extends ThrottlerGuard {
  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    rateLimitRefusals.inc({ limit: 'public' });
    throw new RateLimitedError(
      `too many requests: at most ${detail.limit} per minute; retry later`,
      detail.timeToBlockExpire,
    );
  }
}
