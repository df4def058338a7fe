import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ThrottlerModule } from '@nestjs/throttler';
import type { CairnConfig } from '../../config/config';
import { CONFIG } from '../../core.module';
import { ClientPagesApiController } from './client-pages-api.controller';
import { ClientPagesHtmlController } from './client-pages-html.controller';
import { PublicRateLimitGuard } from './public-rate-limit.guard';

const MINUTE_MS = 60_000;

/**
 * The public client pages: JSON API, HTML pages, stylesheet. No token; one rate limit per client IP for all of
 * them (in-memory, per process), off when CAIRN_PUBLIC_RATE_LIMIT is 0.
 */
@Module({
  imports: [
    CqrsModule,
    ThrottlerModule.forRootAsync({
      inject: [CONFIG],
      useFactory: (config: CairnConfig) => ({
        // Named `default`, so the headers are the usual X-RateLimit-Limit/-Remaining/-Reset and Retry-After.
        throttlers: [{ name: 'default', ttl: MINUTE_MS, limit: Math.max(1, config.publicRateLimit) }],
        skipIf: () => config.publicRateLimit === 0,
        // One bucket per client IP across every public route (the default is one per route).
        generateKey: (_context, tracker) => `public-client-pages:${tracker}`,
      }),
    }),
  ],
  controllers: [ClientPagesApiController, ClientPagesHtmlController],
  providers: [PublicRateLimitGuard],
})
export class ClientPagesHttpModule {}
