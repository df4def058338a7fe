import { Module, type DynamicModule } from '@nestjs/common';
import { OperatorTokens } from '../commands/operator-tokens/operator-tokens';
import {
  AdminTokenCreateCommand,
  AdminTokenListCommand,
  AdminTokenRevokeCommand,
} from './admin-token.commands';
import { StreamAuditor } from '../audit/stream-auditor';
import { TraceVolume } from '../audit/trace-volume';
import { CommandsModule } from '../commands/commands.module';
import { GroundingPolicyPreviewer } from '../commands/connectors/preview-grounding-policy';
import { CoreModule, type CoreOptions } from '../core.module';
import {
  AuditAnchorCommand,
  AuditStreamCommand,
  AuditTraceVolumeCommand,
  AuditVerifyCommand,
} from './audit.commands';
import { ChatbotCreateCommand, ChatbotPauseCommand, ChatbotResumeCommand } from './chatbot.commands';
import {
  ConnectorCreateCommand,
  ConnectorRevokeTokenCommand,
  ConnectorRotateTokenCommand,
  ConnectorSetCapabilitiesCommand,
  SetGroundingPolicyCommand,
} from './connector.commands';
import {
  ClientPageListCommand,
  ClientPagePublishCommand,
  ClientPageUnpublishCommand,
} from './client-page.commands';
import { DemoCommand } from './demo.command';
import { ExportCommand } from './export.command';
import { TracesPruneCommand } from './traces.command';
import { TraceRetention } from '../lifecycle/trace-retention';
import { BackupCommand, McpCommand, RestoreCommand, ServeCommand } from './process.commands';
import { MemoryArchiveCommand, MemoryIngestCommand, MemoryReviseCommand } from './memory.commands';
import { ConversationEraseCommand, MemoryEraseCommand, OrganizationEraseCommand } from './erasure.commands';
import {
  OrgCreateCommand,
  OrgPauseAgentsCommand,
  OrgResumeAgentsCommand,
  OrgSetPlanLimitCommand,
} from './organization.commands';
import { ProjectionsRebuildCommand, ProjectionsStatusCommand } from './projection.commands';
import { AuditReplyCommand, RepliesListCommand, RepliesShowCommand } from './reply.commands';
import { ReplyAuditor } from '../audit/reply-auditor';
import { ProposalApprovalPreviewer } from '../commands/memory/preview-proposal-approval';
import {
  ProposalsApproveCommand,
  ProposalsListCommand,
  ProposalsRejectCommand,
  ProposalsShowCommand,
} from './proposal.commands';
import { QueriesModule } from '../queries/queries.module';
import { ToolDisableCommand, ToolEnableCommand, ToolListCommand, ToolRegisterCommand } from './tool.commands';

/** The operator CLI: the same core and write side as the server, no HTTP. */
@Module({})
export class CliModule {
  static forRoot(options: CoreOptions): DynamicModule {
    return {
      module: CliModule,
      imports: [CoreModule.forRoot(options), CommandsModule, QueriesModule],
      providers: [
        StreamAuditor,
        TraceVolume,
        GroundingPolicyPreviewer,
        ProposalApprovalPreviewer,
        ServeCommand,
        OperatorTokens,
        AdminTokenCreateCommand,
        AdminTokenListCommand,
        AdminTokenRevokeCommand,
        McpCommand,
        BackupCommand,
        RestoreCommand,
        OrgCreateCommand,
        OrgPauseAgentsCommand,
        OrgResumeAgentsCommand,
        OrgSetPlanLimitCommand,
        ChatbotCreateCommand,
        ChatbotPauseCommand,
        ChatbotResumeCommand,
        ConnectorCreateCommand,
        ConnectorRotateTokenCommand,
        ConnectorRevokeTokenCommand,
        ConnectorSetCapabilitiesCommand,
        SetGroundingPolicyCommand,
        ProjectionsStatusCommand,
        RepliesShowCommand,
        RepliesListCommand,
        AuditReplyCommand,
        ReplyAuditor,
        ProjectionsRebuildCommand,
        AuditStreamCommand,
        AuditVerifyCommand,
        AuditAnchorCommand,
        AuditTraceVolumeCommand,
        DemoCommand,
        ExportCommand,
        TraceRetention,
        TracesPruneCommand,
        MemoryIngestCommand,
        MemoryReviseCommand,
        MemoryArchiveCommand,
        MemoryEraseCommand,
        ConversationEraseCommand,
        OrganizationEraseCommand,
        ProposalsListCommand,
        ProposalsShowCommand,
        ProposalsApproveCommand,
        ProposalsRejectCommand,
        ToolRegisterCommand,
        ToolEnableCommand,
        ToolDisableCommand,
        ToolListCommand,
        ClientPagePublishCommand,
        ClientPageUnpublishCommand,
        ClientPageListCommand,
      ],
    };
  }
}
