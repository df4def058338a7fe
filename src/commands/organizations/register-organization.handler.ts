import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import slugify from 'slugify';
import { Clock } from '../../common/clock';
import { ValidationFailedError } from '../../common/errors';
import { IdGenerator } from '../../common/id-generator';
import { streams } from '../../events/domain-event';
import { displayName, slugValue, websiteUrl } from '../shared/domain-values';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { organizationSlugDecider } from './organization-slug.decider';
import { organizationDecider } from './organization.decider';
import {
  RegisterOrganizationCommand,
  type RegisterOrganizationResult,
} from './register-organization.command';

/** A slug claim whose organization was never registered is abandoned after this long. */
export const ABANDONED_CLAIM_MS = 60_000;

@CommandHandler(RegisterOrganizationCommand)
export class RegisterOrganizationHandler implements ICommandHandler<
  RegisterOrganizationCommand,
  RegisterOrganizationResult
> {
  constructor(
    private readonly executor: StreamCommandExecutor,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: RegisterOrganizationCommand): Promise<RegisterOrganizationResult> {
    const name = displayName(command.name);
    const website = command.websiteUrl === null ? null : websiteUrl(command.websiteUrl);
    const slug = slugValue(command.slug ?? deriveSlug(name));
    const organizationId = await this.ids.next('organization');

    // 1. Claim the slug (first claim wins; an abandoned claim may be taken over).
    const slugStream = streams.organizationSlug(slug);
    await this.executor.execute(
      slugStream,
      organizationSlugDecider,
      {
        type: 'ClaimSlug',
        slug,
        organization_id: organizationId,
        claimant_abandoned: await this.claimAbandoned(slugStream),
      },
      command.context,
      { organizationId, waitFor: [], maxAttempts: 1 },
    );
    // 2. Register the organization under the claimed slug.
    await this.executor.execute(
      streams.organization(organizationId),
      organizationDecider,
      { type: 'RegisterOrganization', organization_id: organizationId, name, slug, website_url: website },
      command.context,
      { organizationId },
    );
    return { organization_id: organizationId, slug };
  }

  private async claimAbandoned(slugStream: string): Promise<boolean> {
    const claim = await this.executor.load(slugStream, organizationSlugDecider);
    const last = claim.events[claim.events.length - 1];
    if (!last || claim.state.claimed_by === null) return false;
    const claimant = await this.executor.load(
      streams.organization(claim.state.claimed_by),
      organizationDecider,
    );
    const age = this.clock.nowMs() - Date.parse(last.metadata.occurred_at);
    return !claimant.state.exists && age > ABANDONED_CLAIM_MS;
  }
}

function deriveSlug(name: string): string {
  const slug = slugify(name, { lower: true, strict: true, trim: true }).slice(0, 64).replace(/-+$/, '');
  if (!slug) {
    throw new ValidationFailedError('cannot derive a slug from the name; pass --slug', [
      { field: 'slug', message: 'required when the name has no letters or digits' },
    ]);
  }
  return slug;
}
