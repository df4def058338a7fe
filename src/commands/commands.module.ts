import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CreateChatbotHandler } from './chatbots/create-chatbot.handler';
import { SetChatbotPausedHandler } from './chatbots/set-chatbot-paused.handler';
import { ChangeConnectorHandler } from './connectors/change-connector.handler';
import { RegisterConnectorHandler } from './connectors/register-connector.handler';
import { IngestDocumentHandler } from './memory/ingest-document.handler';
import { ChangeOrganizationHandler } from './organizations/change-organization.handler';
import { RegisterOrganizationHandler } from './organizations/register-organization.handler';

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
  ],
  exports: [CqrsModule],
})
export class CommandsModule {}
