import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../common/errors';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { ORGANIZATIONS } from '../../projections/organizations.projection';
import { ASSISTANT_TOOLS, type AssistantToolDocument } from '../../projections/tools.projection';
import { ListToolsQuery } from './list-tools.query';

/** The most tools one organization's list returns. */
export const MAX_LISTED_TOOLS = 1000;

/** An organization's assistant tools, ordered by key (at most MAX_LISTED_TOOLS); an unknown organization is 404. */
@QueryHandler(ListToolsQuery)
export class ListToolsHandler implements IQueryHandler<ListToolsQuery, AssistantToolDocument[]> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute(query: ListToolsQuery): Promise<AssistantToolDocument[]> {
    if (!(await this.readStore.get(ORGANIZATIONS, String(query.organizationId)))) {
      throw new NotFoundError('organization not found');
    }
    const found = await this.readStore.find<AssistantToolDocument>(ASSISTANT_TOOLS, {
      filter: { organization_id: query.organizationId },
      sort: [{ field: 'tool_key', direction: 'asc' }],
      limit: MAX_LISTED_TOOLS,
    });
    return found.items;
  }
}
