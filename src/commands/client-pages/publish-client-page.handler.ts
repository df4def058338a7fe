import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IdGenerator } from '../../common/id-generator';
import { InternalError, NotFoundError } from '../../common/errors';
import type { CairnConfig } from '../../config/config';
import { CONFIG } from '../../core.module';
import { streams } from '../../events/domain-event';
import { chatbotDecider } from '../chatbots/chatbot.decider';
import type { CommandContext } from '../shared/command-context';
import { OrganizationLoader } from '../shared/organization-loader';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { clientPageChatbotDecider } from './client-page-chatbot.decider';
import { clientPageSlugDecider } from './client-page-slug.decider';
import {
  ASSISTANT_USE_SUMMARY_MAX,
  clientPageSlug,
  ORGANIZATION_SUMMARY_MAX,
  publicWebsite,
  summaryText,
} from './client-page-values';
import { clientPageDecider } from './client-page.decider';
import { PublishClientPageCommand, type PublishClientPageResult } from './publish-client-page.command';

/**
 * Validates the content, checks (on their streams) that the organization has a public website and owns the
 * chatbot, then: binds a page id to the chatbot (once), claims the slug for that page (first claim wins), and
 * publishes or updates the page. Returns once the read models show it.
 */
@CommandHandler(PublishClientPageCommand)
export class PublishClientPageHandler implements ICommandHandler<
  PublishClientPageCommand,
  PublishClientPageResult
> {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly organizations: OrganizationLoader,
    private readonly ids: IdGenerator,
    @Inject(CONFIG) private readonly config: CairnConfig,
  ) {}

  async execute(command: PublishClientPageCommand): Promise<PublishClientPageResult> {
    const slug = clientPageSlug(command.slug);
    const organizationSummary = summaryText(
      command.organizationSummary,
      'organization_summary',
      ORGANIZATION_SUMMARY_MAX,
    );
    const assistantUseSummary = summaryText(
      command.assistantUseSummary,
      'assistant_use_summary',
      ASSISTANT_USE_SUMMARY_MAX,
    );
    const organizationId = command.organizationId;
    publicWebsite((await this.organizations.require(organizationId)).website_url);
    const chatbot = await this.executor.load(streams.chatbot(command.chatbotId), chatbotDecider);
    if (!chatbot.state.exists || chatbot.state.organization_id !== organizationId) {
      throw new NotFoundError('chatbot not found');
    }

    const pageId = await this.pageOf(command.chatbotId, organizationId, command.context);
    await this.executor.execute(
      streams.clientPageSlug(slug),
      clientPageSlugDecider,
      { type: 'ClaimClientPageSlug', slug, client_page_id: pageId, organization_id: organizationId },
      command.context,
      { organizationId, waitFor: [] },
    );
    const published = await this.executor.execute(
      streams.clientPage(pageId),
      clientPageDecider,
      {
        type: 'PublishClientPage',
        client_page_id: pageId,
        organization_id: organizationId,
        chatbot_id: command.chatbotId,
        slug,
        organization_summary: organizationSummary,
        assistant_use_summary: assistantUseSummary,
      },
      command.context,
      { organizationId },
    );
    return {
      client_page_id: pageId,
      slug,
      url: `${this.config.publicUrl}/clients/${slug}`,
      status: 'published',
      changed: published.events.length > 0,
    };
  }

  /** The chatbot's page id: the one bound to it, or a new one bound now (a concurrent binding wins instead). */
  private async pageOf(chatbotId: number, organizationId: number, context: CommandContext): Promise<number> {
    const stream = streams.clientPageChatbot(chatbotId);
    const loaded = await this.executor.load(stream, clientPageChatbotDecider);
    if (loaded.state.client_page_id !== null) return loaded.state.client_page_id;
    const claimed = await this.executor.executeOn(
      stream,
      clientPageChatbotDecider,
      loaded,
      {
        type: 'ClaimChatbotPage',
        chatbot_id: chatbotId,
        organization_id: organizationId,
        client_page_id: await this.ids.next('client_page'),
      },
      context,
      { organizationId, waitFor: [] },
    );
    if (claimed.state.client_page_id === null) throw new InternalError('chatbot page claim left no page id');
    return claimed.state.client_page_id;
  }
}
