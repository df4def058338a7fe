import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { MEMORY_PROPOSALS, type MemoryProposalDocument } from '../../projections/memory-proposals.projection';
import { ListProposalsQuery } from './list-proposals.query';

/** Proposals of an organization, newest first (at most 1,000). */
@QueryHandler(ListProposalsQuery)
export class ListProposalsHandler implements IQueryHandler<ListProposalsQuery, MemoryProposalDocument[]> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute(query: ListProposalsQuery): Promise<MemoryProposalDocument[]> {
    const found = await this.readStore.find<MemoryProposalDocument>(MEMORY_PROPOSALS, {
      filter: { organization_id: query.organizationId, ...(query.status ? { status: query.status } : {}) },
      sort: [{ field: 'proposal_id', direction: 'desc' }],
      limit: 1000,
    });
    return found.items;
  }
}
