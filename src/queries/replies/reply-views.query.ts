/** One reply's receipt view by reply id or by its assistant message id (spec §2.5 `message_id`). */
export class GetReplyViewQuery {
  constructor(
    readonly organizationId: number,
    readonly by: { reply_id: number } | { message_id: number },
  ) {}
}

/** Replies of an organization, newest first. */
export class ListReplyViewsQuery {
  constructor(
    readonly organizationId: number,
    readonly status: 'pending' | 'completed' | 'failed' | null,
    /** ISO 8601: only replies requested at or after it. */
    readonly since: string | null,
    readonly limit: number,
  ) {}
}
