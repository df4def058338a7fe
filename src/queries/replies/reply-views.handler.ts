import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../common/errors';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { REPLIES, type ReplyView } from '../../projections/replies.projection';
import { GetReplyViewQuery, ListReplyViewsQuery } from './reply-views.query';

/** A reply of the organization (another organization's reply is not found: ids are never revealed). */
@QueryHandler(GetReplyViewQuery)
export class GetReplyViewHandler implements IQueryHandler<GetReplyViewQuery, ReplyView> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute(query: GetReplyViewQuery): Promise<ReplyView> {
    const found =
      'reply_id' in query.by
        ? await this.readStore.get<ReplyView>(REPLIES, String(query.by.reply_id))
        : (
            await this.readStore.find<ReplyView>(REPLIES, {
              filter: { organization_id: query.organizationId, message_id: query.by.message_id },
              limit: 1,
            })
          ).items[0];
    if (!found || found.organization_id !== query.organizationId) {
      throw new NotFoundError('reply not found', 'reply_not_found');
    }
    return found;
  }
}

@QueryHandler(ListReplyViewsQuery)
export class ListReplyViewsHandler implements IQueryHandler<ListReplyViewsQuery, ReplyView[]> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute(query: ListReplyViewsQuery): Promise<ReplyView[]> {
    const found = await this.readStore.find<ReplyView>(REPLIES, {
      filter: {
        organization_id: query.organizationId,
        ...(query.status ? { status: query.status } : {}),
        ...(query.since ? { requested_at: { $gte: query.since } } : {}),
      },
      sort: [{ field: 'reply_id', direction: 'desc' }],
      limit: query.limit,
    });
    return found.items;
  }
}
