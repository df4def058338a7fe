import createClient, { type Client } from 'openapi-fetch';
import { accept, correct, reject, sendFeedback, type FeedbackExtras } from './feedback';
import { requestReply, type ReplyOutcome, type RequestReplyOptions } from './replies';
import type { FeedbackRequest, FeedbackResponse, paths, ReplyRequest } from './types';

export { CairnApiError } from './errors';
export type { FeedbackExtras } from './feedback';
export type { ReplyOutcome, RequestReplyOptions } from './replies';
export * from './types';

export interface CairnClientOptions {
  /** The service's base URL, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** A connector token (`cairn_…`); public directory calls need none. */
  token?: string;
  /** A fetch implementation (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

export interface CairnClient {
  /** Every operation, typed from the OpenAPI document (openapi-fetch): `api.POST('/app/api/…', {body})`. */
  api: Client<paths>;
  requestReply(request: ReplyRequest, options?: RequestReplyOptions): Promise<ReplyOutcome>;
  sendFeedback(messageId: number, body: FeedbackRequest): Promise<FeedbackResponse>;
  accept(messageId: number, extras?: FeedbackExtras): Promise<FeedbackResponse>;
  correct(messageId: number, suggestedAnswer: string, extras?: FeedbackExtras): Promise<FeedbackResponse>;
  reject(messageId: number, extras?: FeedbackExtras): Promise<FeedbackResponse>;
}

export function createCairnClient(options: CairnClientOptions): CairnClient {
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return {
    api,
    requestReply: (request, replyOptions) => requestReply(api, request, replyOptions),
    sendFeedback: (messageId, body) => sendFeedback(api, messageId, body),
    accept: (messageId, extras) => accept(api, messageId, extras),
    correct: (messageId, answer, extras) => correct(api, messageId, answer, extras),
    reject: (messageId, extras) => reject(api, messageId, extras),
  };
}
