/**
 * What each operation answers: its success schema, the error statuses it can return, and examples. The document
 * builder attaches these to the operations Nest generated from the controllers (openapi.ts).
 */
export type ErrorStatus = 304 | 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 431 | 500 | 503;

export interface OperationSpec {
  method: 'get' | 'post';
  path: string;
  operationId: string;
  success: { schema: string; description: string; example?: unknown };
  /** The success status (default 200). */
  status?: 200 | 202;
  /** The statuses it can answer besides those of every operation (SERVER_STATUSES: 431, 500, 503). */
  errors: ErrorStatus[];
  /** Needs no token (`security: []`); every other operation takes the bearer token. */
  public?: true;
  /** Path parameters that are positive integers. */
  integerParams?: string[];
}

/** What every operation can answer: headers too large (431), an unexpected failure (500), shutting down (503). */
export const SERVER_STATUSES: ErrorStatus[] = [431, 500, 503];

const CONNECTOR = '/app/api/tool-connectors/v1';
/** Every JSON POST can be malformed, unauthenticated, too large, of another media type or invalid. */
/** Every connector operation is rate limited per token and capability class (429 with Retry-After). */
const POST_ERRORS: ErrorStatus[] = [400, 401, 403, 413, 415, 422, 429];

export const OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: `${CONNECTOR}/memory/search`,
    operationId: 'searchMemory',
    success: {
      schema: 'SearchMemoryResponse',
      description: 'Results (possibly none) and the trace to report usage against.',
      example: {
        ok: true,
        trace_id: 41,
        results: [
          {
            memory_item_id: 12,
            memory_source_id: 7,
            memory_chunk_ids: [31],
            summary: 'Saturday opening hours',
            type: 'fact',
            source_label: 'hours.md',
            source_type: 'document',
            review_status: 'confirmed',
            lifecycle_status: 'active',
            freshness_category: 'current',
          },
        ],
      },
    },
    errors: POST_ERRORS,
  },
  {
    method: 'get',
    path: `${CONNECTOR}/memory/items/{memory_item_id}`,
    operationId: 'getMemoryItem',
    success: { schema: 'MemoryItemWithContent', description: 'The item with its content.' },
    errors: [401, 403, 404, 429],
    integerParams: ['memory_item_id'],
  },
  {
    method: 'post',
    path: `${CONNECTOR}/memory/save`,
    operationId: 'saveMemory',
    success: {
      schema: 'SaveMemoryResponse',
      description: 'Saved (or the same save replayed for the same idempotency_key).',
      example: {
        ok: true,
        memory_source_id: 7,
        memory_item_id: 12,
        status: 'confirmed',
        visibility: 'tool_private',
        unsafe_flags: [],
      },
    },
    errors: [...POST_ERRORS, 409],
  },
  {
    method: 'post',
    path: `${CONNECTOR}/memory/items/{memory_item_id}/forget`,
    operationId: 'forgetMemoryItem',
    success: {
      schema: 'ForgetMemoryResponse',
      description: 'Erased (changed: false when it was erased already).',
      example: {
        ok: true,
        memory_item_id: 12,
        erased: true,
        changed: true,
        erased_at: '2026-11-26T22:40:00.000Z',
      },
    },
    errors: [...POST_ERRORS, 404],
    integerParams: ['memory_item_id'],
  },
  {
    method: 'post',
    path: `${CONNECTOR}/memory/proposals`,
    operationId: 'proposeMemory',
    success: {
      schema: 'ProposeMemoryResponse',
      description: 'Captured for review.',
      example: { ok: true, memory_source_id: 8, proposal_id: 3, status: 'captured', unsafe_flags: [] },
    },
    errors: POST_ERRORS,
  },
  {
    method: 'post',
    path: `${CONNECTOR}/memory/usage`,
    operationId: 'reportUsage',
    success: { schema: 'OkResponse', description: 'Recorded.', example: { ok: true } },
    errors: [...POST_ERRORS, 404],
  },
  {
    method: 'post',
    path: `${CONNECTOR}/assistant/replies`,
    operationId: 'requestReply',
    success: {
      schema: 'ReplyResult',
      description: 'A suggested reply, or a typed system_status (no answer): both HTTP 200.',
      example: {
        ok: false,
        outcome: 'system_status',
        answer: null,
        assistant_message: null,
        reply_id: 5,
        request_status: 'failed',
        message_id: null,
        feedback_token: null,
        system_status: {
          code: 'ai_temporarily_unavailable',
          retryable: true,
          retry_after_ms: 3000,
          trace_id: null,
        },
      },
    },
    errors: [...POST_ERRORS, 409],
  },
  {
    method: 'post',
    path: `${CONNECTOR}/assistant/replies/{message_id}/feedback`,
    operationId: 'sendFeedback',
    success: {
      schema: 'FeedbackResponse',
      description: 'Recorded (or replayed for the same retry identity).',
      example: {
        ok: true,
        outcome: 'accepted',
        rating: 'up',
        feedback_id: 9,
        response_review_id: 9,
        idempotent_replay: false,
      },
    },
    errors: [...POST_ERRORS, 404, 409],
    integerParams: ['message_id'],
  },
  {
    method: 'get',
    path: `${CONNECTOR}/connector`,
    operationId: 'getConnector',
    success: { schema: 'ConnectorSelfResponse', description: 'The connector of this token.' },
    errors: [401, 429],
  },
  {
    method: 'get',
    path: '/api/cairn-client-pages',
    operationId: 'listClientPages',
    public: true,
    success: { schema: 'ClientDirectory', description: 'One page of the published directory.' },
    errors: [304, 422, 429],
  },
  {
    method: 'get',
    path: '/api/cairn-client-pages/{slug}',
    operationId: 'getClientPage',
    public: true,
    success: { schema: 'ClientPageDetail', description: 'One published page.' },
    errors: [304, 404, 429],
  },
  {
    method: 'get',
    path: '/health',
    operationId: 'health',
    public: true,
    success: { schema: 'HealthResponse', description: 'The process answers.' },
    errors: [],
  },
  {
    method: 'get',
    path: '/ready',
    operationId: 'ready',
    public: true,
    success: { schema: 'ReadyResponse', description: 'Every store answers.' },
    errors: [503],
  },
];
