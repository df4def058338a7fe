import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../common/errors';
import { streams } from '../../events/domain-event';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { clientPageSlugDecider } from './client-page-slug.decider';
import { clientPageSlug } from './client-page-values';
import { clientPageDecider } from './client-page.decider';
import { UnpublishClientPageCommand, type UnpublishClientPageResult } from './unpublish-client-page.command';

/**
 * Finds the page by its slug claim (a stream, so never stale) and unpublishes it; another organization's page, an
 * older slug of the page, or an unknown slug is 404. Returns once the read models no longer list it.
 */
@CommandHandler(UnpublishClientPageCommand)
export class UnpublishClientPageHandler implements ICommandHandler<
  UnpublishClientPageCommand,
  UnpublishClientPageResult
> {
  constructor(private readonly executor: StreamCommandExecutor) {}

  async execute(command: UnpublishClientPageCommand): Promise<UnpublishClientPageResult> {
    const slug = clientPageSlug(command.slug);
    const claim = await this.executor.load(streams.clientPageSlug(slug), clientPageSlugDecider);
    const pageId = claim.state.claimed_by;
    if (pageId === null) throw new NotFoundError('client page not found');
    const result = await this.executor.execute(
      streams.clientPage(pageId),
      clientPageDecider,
      { type: 'UnpublishClientPage', organization_id: command.organizationId, slug },
      command.context,
      { organizationId: command.organizationId },
    );
    return { client_page_id: pageId, slug, status: 'unpublished', changed: result.events.length > 0 };
  }
}
