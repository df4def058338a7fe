import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CreateChatbotHandler } from './chatbots/create-chatbot.handler';
import { SetChatbotPausedHandler } from './chatbots/set-chatbot-paused.handler';
import { PublishClientPageHandler } from './client-pages/publish-client-page.handler';
import { UnpublishClientPageHandler } from './client-pages/unpublish-client-page.handler';
import { ChangeConnectorHandler } from './connectors/change-connector.handler';
import { RegisterConnectorHandler } from './connectors/register-connector.handler';
import { ArchiveMemoryItemHandler } from './memory/archive-memory-item.handler';
import { EraseSubjectHandler } from './erasure/erase-subject.handler';
import { IngestDocumentHandler } from './memory/ingest-document.handler';
import { MemoryItemWriter } from './memory/memory-item-writer';
import { ProposeMemoryHandler } from './memory/propose-memory.handler';
import { RecordRecallTraceHandler } from './memory/record-recall-trace.handler';
import { ReportUsageHandler } from './memory/report-usage.handler';
import { ReviseMemoryItemHandler } from './memory/revise-memory-item.handler';
import { ReviewProposalHandler } from './memory/review-proposal.handler';
import { SaveMemoryHandler } from './memory/save-memory.handler';
import { UnsafeContentScanner } from '../safety/unsafe-content/unsafe-content-scanner';
import { ChangeOrganizationHandler } from './organizations/change-organization.handler';
import { RegisterOrganizationHandler } from './organizations/register-organization.handler';
import { ConfiguredReplyModels, ReplyModels } from './replies/reply-models';
import { ReplyConversation } from './replies/reply-conversation';
import { ReplyRetrieval } from './replies/reply-retrieval';
import { ReplyCancellation } from './replies/reply-cancellation';
import { ReplyGate } from './replies/reply-gate';
import { ReplyQuota } from './replies/reply-quota';
import { ReplyTools } from './replies/reply-tools';
import { ReplyRun } from './replies/reply-run';
import { ReplyClaims } from './replies/reply-claims';
import { FeedbackClaims } from './replies/feedback-claims';
import { IdentityClaimWriter } from './shared/identity-claim';
import { ReplyChatbots } from './replies/reply-chatbots';
import { RequestReplyHandler } from './replies/request-reply.handler';
import { SubmitFeedbackHandler } from './replies/submit-feedback.handler';
import { RegisterToolHandler } from './tools/register-tool.handler';
import { SetToolEnabledHandler } from './tools/set-tool-enabled.handler';
import type { CairnConfig } from '../config/config';
import { CONFIG } from '../core.module';

/** The write side: every command handler. */
@Module({
  imports: [CqrsModule],
  providers: [
    RegisterOrganizationHandler,
    ChangeOrganizationHandler,
    CreateChatbotHandler,
    SetChatbotPausedHandler,
    RegisterConnectorHandler,
    ChangeConnectorHandler,
    IngestDocumentHandler,
    ReviseMemoryItemHandler,
    ArchiveMemoryItemHandler,
    EraseSubjectHandler,
    MemoryItemWriter,
    UnsafeContentScanner,
    SaveMemoryHandler,
    ProposeMemoryHandler,
    ReviewProposalHandler,
    RecordRecallTraceHandler,
    ReportUsageHandler,
    RequestReplyHandler,
    SubmitFeedbackHandler,
    RegisterToolHandler,
    SetToolEnabledHandler,
    PublishClientPageHandler,
    UnpublishClientPageHandler,
    ReplyRun,
    ReplyClaims,
    FeedbackClaims,
    IdentityClaimWriter,
    ReplyChatbots,
    ReplyConversation,
    ReplyRetrieval,
    ReplyGate,
    ReplyQuota,
    ReplyCancellation,
    ReplyTools,
    {
      provide: ReplyModels,
      useFactory: (config: CairnConfig) => new ConfiguredReplyModels(config),
      inject: [CONFIG],
    },
  ],
  exports: [CqrsModule, UnsafeContentScanner],
})
export class CommandsModule {}
