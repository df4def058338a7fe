import type { EventData } from '../infrastructure/event-store/event-store.port';

/** An event as a decider emits it: a type and its data. Metadata is added when it is appended. */
export interface DomainEvent<T extends string = string, D extends EventData = EventData> {
  type: T;
  data: D;
}

/** The schema version of every event type this build writes. Bump one when its data shape changes. */
export const CURRENT_SCHEMA_VERSION = 1;

/** Stream names (ARCHITECTURE.md "Streams"). Ids are positive integers. */
export const streams = {
  organization: (id: number) => `organization-${id}`,
  organizationSlug: (slug: string) => `organization-slug-${slug}`,
  chatbot: (id: number) => `chatbot-${id}`,
  connector: (id: number) => `connector-${id}`,
  memorySource: (id: number) => `memory-source-${id}`,
  memoryItem: (id: number) => `memory-item-${id}`,
  /** Keyed by SHA-256 of (organization, document key). */
  memoryDocument: (digest: string) => `memory-document-${digest}`,
  /**
   * A source several documents share (the records of one JSON or JSONL file), keyed by SHA-256 of (organization,
   * source key): its MemorySourceRegistered, once. A document that is its own source has `memory-source-<id>`.
   */
  memorySourceKey: (digest: string) => `memory-source-key-${digest}`,
  /** Keyed by SHA-256 of (organization, client key, idempotency key). */
  memorySave: (digest: string) => `memory-save-${digest}`,
  memoryProposal: (id: number) => `memory-proposal-${id}`,
  recallTrace: (id: number) => `recall-trace-${id}`,
  /** Keyed by SHA-256 of the reply identity (organization, connector, chatbot, retry key or external message id). */
  replyRequest: (digest: string) => `reply-request-${digest}`,
  /**
   * Keyed by SHA-256 of ONE reply identity (organization, connector, chatbot, key kind, key): which request stream
   * that idempotency key or external message id belongs to (spec §3: either key identifies the request).
   */
  replyClaim: (digest: string) => `reply-claim-${digest}`,
  conversation: (id: number) => `conversation-${id}`,
  /** Keyed by SHA-256 of (organization, connector, chatbot, external_thread_id): which conversation a thread uses. */
  conversationThread: (digest: string) => `conversation-thread-${digest}`,
  /** Keyed by SHA-256 of (organization, connector, message, retry id). */
  replyFeedback: (digest: string) => `reply-feedback-${digest}`,
  /**
   * Keyed by SHA-256 of ONE feedback identity (organization, connector, message, key kind, key): which feedback
   * stream that external_feedback_id or idempotency_key belongs to (either key identifies the feedback).
   */
  feedbackClaim: (digest: string) => `reply-feedback-claim-${digest}`,
  /** One per organization and UTC calendar month (`YYYY-MM`): the monthly reply quota (spec §7 plan limit). */
  replyQuota: (organizationId: number, period: string) => `reply-quota-${organizationId}-${period}`,
  /** One per organization and assistant tool key: the tool's definition versions and enabled state. */
  tool: (organizationId: number, key: string) => `tool-${organizationId}-${key}`,
  /** Keyed by SHA-256 of (organization, connector, reply, tool key, canonical input). */
  toolRun: (digest: string) => `tool-run-${digest}`,
  /** A public client page (published, updated, unpublished). */
  clientPage: (id: number) => `client-page-${id}`,
  /** Slug uniqueness among client pages: the first claim wins, for good. */
  clientPageSlug: (slug: string) => `client-page-slug-${slug}`,
  /** One client page per chatbot: which page id belongs to the chatbot. */
  clientPageChatbot: (chatbotId: number) => `client-page-chatbot-${chatbotId}`,
  /** An operator token of the admin API, keyed by the token's SHA-256 (the token itself is never stored). */
  operatorToken: (digest: string) => `operator-token-${digest}`,
  /** One per erased subject (a data-key subject name: `memory-item-7`): its SubjectErased event. */
  erasure: (subject: string) => `erasure-${subject}`,
} as const;
