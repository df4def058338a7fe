import type { Type } from '@nestjs/common';
import { MemoryController } from '../http/memory/memory.controller';
import {
  ProposeMemoryBody,
  ReportUsageBody,
  SaveMemoryBody,
  ForgetMemoryBody,
  SearchMemoryBody,
} from '../http/memory/memory.dto';
import { FeedbackController } from '../http/replies/feedback.controller';
import { SubmitFeedbackBody } from '../http/replies/feedback.dto';
import { ReplyController } from '../http/replies/reply.controller';
import { ReplyRequestBody } from '../http/replies/reply.dto';
import type { ConnectorPrincipal } from '../http/auth/connector-principal';
import { ITEM_ID_SCHEMA, ItemIdArgs, MESSAGE_ID_SCHEMA, MessageIdArgs } from './tool-args';

type Json = { [key: string]: unknown };

/** The REST controllers the tools dispatch through (same commands, queries, defaults and capabilities). */
export interface Controllers {
  memory: MemoryController;
  reply: ReplyController;
  feedback: FeedbackController;
}

export interface McpToolDefinition {
  name: string;
  title: string;
  description: string;
  /** The controller method: its RequireCapabilities decide who sees and may call the tool. */
  handler: (controllers: Controllers) => object;
  /**
   * The arguments: the REST API's own DTO classes validate them and its OpenAPI components describe them (a
   * JSON Schema object for a path id). A part with `keys` takes those arguments; the last part takes the rest.
   */
  input: Array<{ dto: Type<object>; schema: string | Json; keys?: string[] }>;
  /** The OpenAPI component of the structured result. */
  output: string;
  readOnly: boolean;
  call(
    controllers: Controllers,
    connector: ConnectorPrincipal,
    args: Record<string, unknown>,
    /** The MCP HTTP request's id: the correlation id of what the call appends. */
    requestId?: string,
  ): Promise<object>;
}

const rest = (args: Record<string, unknown>, key: string): Record<string, unknown> => {
  const { [key]: _omitted, ...others } = args;
  return others;
};

/** Spec §4.1–4.7 as MCP tools. Arguments arrive validated by their DTOs (mcp-server.ts). */
export const MCP_TOOLS: McpToolDefinition[] = [
  {
    name: 'memory_search',
    title: 'Search organization memory',
    description:
      'Searches this organization’s memory. Keep trace_id and report which results helped with memory_report_usage.',
    handler: (c) => c.memory.search,
    input: [{ dto: SearchMemoryBody, schema: 'SearchMemoryBody' }],
    output: 'SearchMemoryResponse',
    readOnly: true,
    call: (c, connector, args, requestId) =>
      c.memory.search(connector, args as unknown as SearchMemoryBody, requestId),
  },
  {
    name: 'memory_fetch',
    title: 'Fetch one memory item',
    description: 'One memory item with its content; not_found when unknown or not visible to you.',
    handler: (c) => c.memory.item,
    input: [{ dto: ItemIdArgs, schema: ITEM_ID_SCHEMA }],
    output: 'MemoryItemWithContent',
    readOnly: true,
    call: (c, connector, args) => c.memory.item(connector, String(args.memory_item_id)),
  },
  {
    name: 'memory_save',
    title: 'Save an internal tool note',
    description:
      'Saves an internal note: never customer-facing; customer-facing facts go through memory_propose.',
    handler: (c) => c.memory.save,
    input: [{ dto: SaveMemoryBody, schema: 'SaveMemoryBody' }],
    output: 'SaveMemoryResponse',
    readOnly: false,
    call: (c, connector, args, requestId) =>
      c.memory.save(connector, args as unknown as SaveMemoryBody, requestId),
  },
  {
    name: 'memory_forget',
    title: 'Forget a note you saved',
    description:
      'Erases for good a memory item this connector saved itself (its text becomes unreadable everywhere); not_found for any other item.',
    handler: (c) => c.memory.forget,
    input: [
      { dto: ItemIdArgs, schema: ITEM_ID_SCHEMA, keys: ['memory_item_id'] },
      { dto: ForgetMemoryBody, schema: 'ForgetMemoryBody' },
    ],
    output: 'ForgetMemoryResponse',
    readOnly: false,
    call: (c, connector, args, requestId) =>
      c.memory.forget(
        connector,
        String(args.memory_item_id),
        rest(args, 'memory_item_id') as unknown as ForgetMemoryBody,
        requestId,
      ),
  },
  {
    name: 'memory_propose',
    title: 'Propose a memory update',
    description: 'Proposes a customer-facing fact; it changes nothing until an operator approves it.',
    handler: (c) => c.memory.propose,
    input: [{ dto: ProposeMemoryBody, schema: 'ProposeMemoryBody' }],
    output: 'ProposeMemoryResponse',
    readOnly: false,
    call: (c, connector, args, requestId) =>
      c.memory.propose(connector, args as unknown as ProposeMemoryBody, requestId),
  },
  {
    name: 'memory_report_usage',
    title: 'Report which search results helped',
    description: 'Reports used and ignored items of a memory_search trace.',
    handler: (c) => c.memory.usage,
    input: [{ dto: ReportUsageBody, schema: 'ReportUsageBody' }],
    output: 'OkResponse',
    readOnly: false,
    call: (c, connector, args, requestId) =>
      c.memory.usage(connector, args as unknown as ReportUsageBody, requestId),
  },
  {
    name: 'reply_request',
    title: 'Request a suggested reply',
    description:
      'A reviewed, grounded suggested reply to the latest message of an external thread. Branch on ok / ' +
      'outcome: a system_status is operational state, never speech; retry it with the same idempotency fields after ' +
      'retry_after_ms when retryable.',
    handler: (c) => c.reply.request,
    input: [{ dto: ReplyRequestBody, schema: 'ReplyRequestBody' }],
    output: 'ReplyResult',
    readOnly: false,
    call: (c, connector, args, requestId) =>
      c.reply.request(connector, args as unknown as ReplyRequestBody, requestId),
  },
  {
    name: 'reply_feedback',
    title: 'Send feedback on a suggested reply',
    description:
      'Feedback on a successful reply’s message_id: accepted, corrected (with suggested_answer) or rejected.',
    handler: (c) => c.feedback.submit,
    input: [
      { dto: MessageIdArgs, schema: MESSAGE_ID_SCHEMA, keys: ['message_id'] },
      { dto: SubmitFeedbackBody, schema: 'SubmitFeedbackBody' },
    ],
    output: 'FeedbackResponse',
    readOnly: false,
    call: (c, connector, args, requestId) =>
      c.feedback.submit(
        connector,
        String(args.message_id),
        rest(args, 'message_id') as unknown as SubmitFeedbackBody,
        requestId,
      ),
  },
];
