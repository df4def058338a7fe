import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { GetMemoryItemHandler } from './memory/get-memory-item.handler';
import { ListProposalsHandler } from './memory/list-proposals.handler';
import { SearchMemoryHandler } from './memory/search-memory.handler';
import { VectorCandidates } from './memory/vector-candidates';
import { ListToolsHandler } from './tools/list-tools.handler';

/** The read side: query handlers read only read models and the search index. */
@Module({
  imports: [CqrsModule],
  providers: [
    SearchMemoryHandler,
    GetMemoryItemHandler,
    ListProposalsHandler,
    VectorCandidates,
    ListToolsHandler,
  ],
})
export class QueriesModule {}
