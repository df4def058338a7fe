import type { Client } from 'openapi-fetch';
import type { CallOptions } from './call-options.js';
import { dataOrThrow } from './errors.js';
import type { FeedbackRequest, FeedbackResponse, paths } from './types.js';

/** Retry identity (`external_feedback_id`, scoped to the message) and extras of one feedback submission. */
export type FeedbackExtras = Omit<FeedbackRequest, 'outcome' | 'rating' | 'suggested_answer'>;

/** POST …/assistant/replies/{message_id}/feedback: the message_id of a successful reply, never of a system_status. */
export function sendFeedback(
  api: Client<paths>,
  messageId: number,
  body: FeedbackRequest,
  options: CallOptions = {},
): Promise<FeedbackResponse> {
  return api
    .POST('/app/api/tool-connectors/v1/assistant/replies/{message_id}/feedback', {
      params: { path: { message_id: messageId } },
      body,
      ...(options.signal ? { signal: options.signal } : {}),
    })
    .then(dataOrThrow);
}

/** The reply was used as suggested. */
export const accept = (
  api: Client<paths>,
  messageId: number,
  extras: FeedbackExtras = {},
  options: CallOptions = {},
) => sendFeedback(api, messageId, { ...extras, outcome: 'accepted', rating: 'up' }, options);

/** The reply was corrected: `suggestedAnswer` becomes a memory proposal for review (never memory at once). */
export const correct = (
  api: Client<paths>,
  messageId: number,
  suggestedAnswer: string,
  extras: FeedbackExtras = {},
  options: CallOptions = {},
) =>
  sendFeedback(
    api,
    messageId,
    { ...extras, outcome: 'corrected', suggested_answer: suggestedAnswer },
    options,
  );

/** The reply was not used. */
export const reject = (
  api: Client<paths>,
  messageId: number,
  extras: FeedbackExtras = {},
  options: CallOptions = {},
) => sendFeedback(api, messageId, { ...extras, outcome: 'rejected', rating: 'down' }, options);
