/** Topics, questions and draft helpers shared by the grounding scenarios. */
import type { DraftInput } from '../../../src/ai/reply-model-contract';
import { draftOf, quote, say, type ReplyBody } from './adversarial-model';

export const HOURS = 'Opening hours';
export const REFUNDS = 'Refund policy';
export const CONTACT = 'Contact us';
export const PARKING = 'Parking';
export const SHIPPING = 'Shipping';
export const GIFTS = 'Gift cards';

export const Q_HOURS = 'What are your opening hours on weekdays?';
export const Q_REFUND = 'How long do I have to ask for a refund?';
export const Q_REFUND_CONTACT = 'How long do I have for a refund, and how can I contact support by email?';
export const Q_CONTACT = 'How can I contact support, and where are the help pages?';
export const Q_PARKING = 'Is there parking at the shop, and where is the parking map?';
export const Q_SATURDAY = 'What are your Saturday opening hours?';
export const Q_SHIPPING = 'How much does standard shipping cost, and how long do refunds take?';
export const Q_GIFTS = 'How long are gift cards valid?';

export const REVIEW_FAILED = ['semantic_review_failed'];
export const INSUFFICIENT = ['authoritative_evidence_insufficient'];

export const textIs =
  (expected: string) =>
  (body: ReplyBody): string | null =>
    body.suggested_response?.text === expected
      ? null
      : `text is ${JSON.stringify(body.suggested_response?.text)}`;

/** The first two reviewed claims swapped, or another change to the verdict list. */
export type Claims = Array<{ text: string; supported: boolean; reference_ids: string[] }>;
export const claimsOf = (review: unknown): Claims => (review as { claims: Claims }).claims;

export const honestHours = (input: DraftInput) => draftOf([quote(input, HOURS, 0)]);
export const honestRefund = (input: DraftInput) => draftOf([quote(input, REFUNDS, 0)]);
export const twoRefundClaims = (input: DraftInput) =>
  draftOf([quote(input, REFUNDS, 0), quote(input, REFUNDS, 2)]);
/** The draft's claims plus a lie of ours citing `title`, after an honest refund claim. */
export const refundAnd = (text: string, title: string) => (input: DraftInput) =>
  draftOf([quote(input, REFUNDS, 0), say(input, text, title)]);
export const lie = (text: string, title: string) => (input: DraftInput) => draftOf([say(input, text, title)]);
