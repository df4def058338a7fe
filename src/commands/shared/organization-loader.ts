import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors';
import { streams } from '../../events/domain-event';
import { organizationDecider, type OrganizationState } from '../organizations/organization.decider';
import { StreamCommandExecutor } from './stream-command-executor';

/** Loads an organization from its stream (consistent), or throws 404. */
@Injectable()
export class OrganizationLoader {
  constructor(private readonly executor: StreamCommandExecutor) {}

  async require(organizationId: number): Promise<Extract<OrganizationState, { exists: true }>> {
    const { state } = await this.executor.loadLatest(
      streams.organization(organizationId),
      organizationDecider,
    );
    if (!state.exists) throw new NotFoundError('organization not found');
    return state;
  }
}
