import { QueryBus } from '@nestjs/cqrs';
import { Command, Option } from 'nest-commander';
import { ReplyAuditor, type BoundStream } from '../audit/reply-auditor';
import { ConflictError, ValidationFailedError } from '../common/errors';
import type { ReplyView } from '../projections/replies.projection';
import { GetReplyViewQuery, ListReplyViewsQuery } from '../queries/replies/reply-views.query';
import { expectArgs, oneOf, parseCount, parseId } from './cli-args';
import { JsonCommand } from './json-command';

const STATUSES = ['pending', 'completed', 'failed'] as const;
const MAX_LIST = 1000;
const view = ({ id: _id, ...reply }: ReplyView): Omit<ReplyView, 'id'> => reply;

@Command({
  name: 'replies:show',
  arguments: '<ORG> [REPLY_ID]',
  description: 'One reply receipt view → {reply}: by reply id, or by the assistant message id with --message',
})
export class RepliesShowCommand extends JsonCommand {
  constructor(private readonly queries: QueryBus) {
    super();
  }

  protected async execute(params: string[], options: { message?: number }): Promise<object> {
    const usage = 'replies:show ORG (REPLY_ID | --message ID)';
    expectArgs(params, options.message === undefined ? 2 : 1, usage);
    const organizationId = parseId(params[0], 'ORG');
    const by =
      options.message === undefined
        ? { reply_id: parseId(params[1], 'REPLY_ID') }
        : { message_id: options.message };
    const reply = await this.queries.execute<GetReplyViewQuery, ReplyView>(
      new GetReplyViewQuery(organizationId, by),
    );
    return { reply: view(reply) };
  }

  @Option({ flags: '--message <id>', description: 'the assistant message id (spec §2.5 message_id)' })
  parseMessage(value: string): number {
    return parseId(value, '--message');
  }
}

@Command({
  name: 'replies:list',
  arguments: '<ORG>',
  description: 'Reply receipt views of an organization, newest first → {replies}',
})
export class RepliesListCommand extends JsonCommand {
  constructor(private readonly queries: QueryBus) {
    super();
  }

  protected async execute(
    params: string[],
    options: { status?: (typeof STATUSES)[number]; since?: string; limit?: number },
  ): Promise<object> {
    expectArgs(params, 1, 'replies:list ORG [--status S] [--since ISO] [--limit N]');
    const replies = await this.queries.execute<ListReplyViewsQuery, ReplyView[]>(
      new ListReplyViewsQuery(
        parseId(params[0], 'ORG'),
        options.status ?? null,
        options.since ?? null,
        options.limit ?? 100,
      ),
    );
    return { replies: replies.map(view) };
  }

  @Option({ flags: '--status <status>', description: 'pending, completed or failed' })
  parseStatus(value: string): (typeof STATUSES)[number] {
    return oneOf(value, STATUSES, '--status');
  }

  @Option({ flags: '--since <iso>', description: 'only replies requested at or after this ISO 8601 time' })
  parseSince(value: string): string {
    const ms = Date.parse(value);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) {
      throw new ValidationFailedError('--since must be an ISO 8601 time', [
        { field: '--since', message: 'ISO 8601' },
      ]);
    }
    return new Date(ms).toISOString();
  }

  @Option({ flags: '--limit <n>', description: `1 to ${MAX_LIST} (default 100)` })
  parseLimit(value: string): number {
    const n = parseCount(value, '--limit');
    if (n < 1 || n > MAX_LIST) {
      throw new ValidationFailedError(`--limit must be 1 to ${MAX_LIST}`, [
        { field: '--limit', message: `1-${MAX_LIST}` },
      ]);
    }
    return n;
  }
}

@Command({
  name: 'audit:reply',
  arguments: '<ORG> <REPLY_ID>',
  description:
    'Every stream bound to one reply (request, claims, thread, conversation, trace, tool runs, feedback, ' +
    'proposals, cited items at the cited revision, quota) with hashes and chain checks → {reply, verified, streams}; ' +
    'exits 1 naming each stream that is missing or broken',
})
export class AuditReplyCommand extends JsonCommand {
  constructor(private readonly auditor: ReplyAuditor) {
    super();
  }

  protected async execute(params: string[]): Promise<object> {
    expectArgs(params, 2, 'audit:reply ORG REPLY_ID');
    const { reply, verified, streams } = await this.auditor.reply(
      parseId(params[0], 'ORG'),
      parseId(params[1], 'REPLY_ID'),
    );
    if (!verified) throw replyAuditFailed(streams);
    return { reply: view(reply), verified, streams };
  }
}

/** audit:reply's failure: every bound stream that is missing, broken, or lacks the cited revision. */
function replyAuditFailed(streams: BoundStream[]): ConflictError {
  const failed = streams.filter((s) => !s.chain_verified || s.missing);
  return new ConflictError(
    'reply_audit_failed',
    `${failed.length} stream(s) bound to the reply are missing or broken: ` +
      failed.map((s) => `${s.stream} (${s.role})`).join(', '),
    failed.map(({ stream, role, missing, missing_reason, chain_break, cited }) => ({
      message: chain_break?.reason ?? missing_reason ?? 'stream_missing',
      stream,
      role,
      missing,
      chain_break,
      ...(cited ? { cited } : {}),
    })),
  );
}
