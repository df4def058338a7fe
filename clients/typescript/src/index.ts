import createClient, { type Client } from 'openapi-fetch';
import type { CallOptions } from './call-options.js';
import { accept, correct, reject, sendFeedback, type FeedbackExtras } from './feedback.js';
import { requestReply, type ReplyOutcome, type RequestReplyOptions } from './replies.js';
import { retryingFetch, type FetchFn, type RetryOptions } from './retry.js';
import { saveMemory } from './save.js';
import type {
  FeedbackRequest,
  FeedbackResponse,
  paths,
  ReplyRequest,
  SaveMemoryRequest,
  SaveMemoryResponse,
} from './types.js';

export { CairnApiError, CairnTimeoutError } from './errors.js';
export type { CallOptions } from './call-options.js';
export type { FeedbackExtras } from './feedback.js';
export type { ReplyOutcome, RequestReplyOptions } from './replies.js';
export { IDENTITY_FIELDS, retryingFetch, type FetchFn, type RetryOptions } from './retry.js';
export { newIdempotencyKey, withIdempotencyKey } from './save.js';
export * from './types.js';

export interface CairnClientOptions extends RetryOptions {
  /** The service's base URL, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** A connector token (`cairn_…`); public directory calls need none. */
  token?: string;
  /** A fetch implementation (default: the global one); the client's retries wrap it. */
  fetch?: FetchFn;
}

export interface CairnClient {
  /**
   * Every operation, typed from the OpenAPI document (openapi-fetch): `api.POST('/app/api/…', {body})`. Calls
   * retry as `retryingFetch` says and take a `signal`.
   */
  api: Client<paths>;
  requestReply(request: ReplyRequest, options?: RequestReplyOptions): Promise<ReplyOutcome>;
  /** Saves an internal note with an idempotency key (the body's own or a new one), so retries store it once. */
  save(body: SaveMemoryRequest, options?: CallOptions): Promise<SaveMemoryResponse>;
  sendFeedback(messageId: number, body: FeedbackRequest, options?: CallOptions): Promise<FeedbackResponse>;
  accept(messageId: number, extras?: FeedbackExtras, options?: CallOptions): Promise<FeedbackResponse>;
  correct(
    messageId: number,
    suggestedAnswer: string,
    extras?: FeedbackExtras,
    options?: CallOptions,
  ): Promise<FeedbackResponse>;
  reject(messageId: number, extras?: FeedbackExtras, options?: CallOptions): Promise<FeedbackResponse>;
}

export function createCairnClient(options: CairnClientOptions): CairnClient {
  const inner: FetchFn = options.fetch ?? ((request) => globalThis.fetch(request));
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    fetch: retryingFetch(inner, options),
  });
  return {
    api,
    requestReply: (request, replyOptions) => requestReply(api, request, replyOptions),
    save: (body, callOptions) => saveMemory(api, body, callOptions),
    sendFeedback: (messageId, body, callOptions) => sendFeedback(api, messageId, body, callOptions),
    accept: (messageId, extras, callOptions) => accept(api, messageId, extras, callOptions),
    correct: (messageId, answer, extras, callOptions) => correct(api, messageId, answer, extras, callOptions),
    reject: (messageId, extras, callOptions) => reject(api, messageId, extras, callOptions),
  };
}
