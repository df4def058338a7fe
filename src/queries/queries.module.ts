import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { GetClientPageHandler } from './client-pages/get-client-page.handler';
import { ListClientPagesHandler } from './client-pages/list-client-pages.handler';
import { ListOrganizationClientPagesHandler } from './client-pages/list-organization-client-pages.handler';
import { GetMemoryItemHandler } from './memory/get-memory-item.handler';
import { ListProposalsHandler } from './memory/list-proposals.handler';
import { SearchMemoryHandler } from './memory/search-memory.handler';
import { VectorCandidates } from './memory/vector-candidates';
import { GetReplyViewHandler, ListReplyViewsHandler } from './replies/reply-views.handler';
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
    GetReplyViewHandler,
    ListReplyViewsHandler,
    ListClientPagesHandler,
    GetClientPageHandler,
    ListOrganizationClientPagesHandler,
  ],
})
export class QueriesModule {}
