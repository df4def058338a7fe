import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { APP_FILTER } from '@nestjs/core';
import { AdminHttpModule } from './admin/admin-http.module';
import { ConsoleHttpModule } from './console/console-http.module';
import { ConnectorAuthenticator } from './auth/connector-authenticator';
import { ConnectorAuthGuard } from './auth/connector-auth.guard';
import { ConnectorRateLimiter } from './auth/connector-rate-limiter';
import { ClientPagesHttpModule } from './client-pages/client-pages-http.module';
import { ConnectorSelfController } from './connectors/connector-self.controller';
import { AllExceptionsFilter } from './errors/all-exceptions.filter';
import { OpenApiDocumentHolder } from './openapi-document';
import { HealthController } from './health/health.controller';
import { MemoryController } from './memory/memory.controller';
import { FeedbackController } from './replies/feedback.controller';
import { ReplyController } from './replies/reply.controller';

/** Thin controllers: parse, authorize, dispatch. */
@Module({
  imports: [CqrsModule, ClientPagesHttpModule, AdminHttpModule, ConsoleHttpModule],
  controllers: [
    HealthController,
    ConnectorSelfController,
    MemoryController,
    ReplyController,
    FeedbackController,
  ],
  providers: [
    ConnectorAuthenticator,
    ConnectorAuthGuard,
    ConnectorRateLimiter,
    OpenApiDocumentHolder,
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
  ],
  exports: [ConnectorAuthenticator, ConnectorAuthGuard, ConnectorRateLimiter, OpenApiDocumentHolder],
})
export class HttpModule {}
