import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ReplyAuditor } from '../../audit/reply-auditor';
import { ProposalApprovalPreviewer } from '../../commands/memory/preview-proposal-approval';
import { OperatorTokens } from '../../commands/operator-tokens/operator-tokens';
import { AdminViews } from '../../queries/admin/admin-views';
import { AdminConnectorsController } from './admin-connectors.controller';
import { AdminMemoryController } from './admin-memory.controller';
import { AdminOrganizationsController } from './admin-organizations.controller';
import { AdminProjectionsController } from './admin-projections.controller';
import { AdminProposalsController } from './admin-proposals.controller';
import { AdminRepliesController } from './admin-replies.controller';
import { DocumentIngestions } from './document-ingestions';
import { OperatorAuthGuard } from './operator-auth.guard';

/** The admin API (`/admin/api/v1`, operator tokens with scopes: docs/admin.md). */
@Module({
  imports: [CqrsModule],
  controllers: [
    AdminOrganizationsController,
    AdminConnectorsController,
    AdminMemoryController,
    AdminProposalsController,
    AdminRepliesController,
    AdminProjectionsController,
  ],
  providers: [
    OperatorTokens,
    OperatorAuthGuard,
    AdminViews,
    DocumentIngestions,
    ProposalApprovalPreviewer,
    ReplyAuditor,
  ],
  exports: [
    OperatorTokens,
    OperatorAuthGuard,
    AdminViews,
    DocumentIngestions,
    ProposalApprovalPreviewer,
    ReplyAuditor,
  ],
})
export class AdminHttpModule {}
