import type { Client } from 'openapi-fetch';
import { dataOrThrow } from './errors';
import type { FeedbackRequest, FeedbackResponse, paths } from './types';

/** Retry identity and extras of one feedback submission (spec §4.7 rule 3: scoped to the message). */
export type FeedbackExtras = Omit<FeedbackRequest, 'outcome' | 'rating' | 'suggested_answer'>;

/** POST …/assistant/replies/{message_id}/feedback: the message_id of a successful reply, never of a system_status. */
export function sendFeedback(
  api: Client<paths>,
  messageId: number,
  body: FeedbackRequest,
): Promise<FeedbackResponse> {
  return api
    .POST('/app/api/tool-connectors/v1/assistant/replies/{message_id}/feedback', {
      params: { path: { message_id: messageId } },
      body,
    })
    .then(dataOrThrow);
}

/** The reply was used as suggested. */
export const accept = (api: Client<paths>, messageId: number, extras: FeedbackExtras = {}) =>
  sendFeedback(api, messageId, { ...extras, outcome: 'accepted', rating: 'up' });

/** The reply was corrected: `suggestedAnswer` becomes a memory proposal for review (never memory at once). */
export const correct = (
  api: Client<paths>,
  messageId: number,
  suggestedAnswer: string,
  extras: FeedbackExtras = {},
) => sendFeedback(api, messageId, { ...extras, outcome: 'corrected', suggested_answer: suggestedAnswer });

/** The reply was not used. */
export const reject = (api: Client<paths>, messageId: number, extras: FeedbackExtras = {}) =>
  sendFeedback(api, messageId, { ...extras, outcome: 'rejected', rating: 'down' });
