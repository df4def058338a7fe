import type { DomainEvent } from '../domain-event';

/** The content of a client page as its organization wrote it (validated by the publish command). */
export type ClientPageContent = {
  client_page_id: number;
  organization_id: number;
  chatbot_id: number;
  /** Globally unique among client pages (claimed on `client-page-slug-{slug}`). */
  slug: string;
  organization_summary: string;
  assistant_use_summary: string;
};

/**
 * Stream `client-page-{id}`: the page was published, first or again after it was unpublished. Publishing starts
 * a new publication (the public `published_at` is this event's time).
 */
export type ClientPagePublished = DomainEvent<'ClientPagePublished', ClientPageContent>;

/** A published page's slug or summaries changed (the full new content; `previous_slug` when the slug moved). */
export type ClientPageUpdated = DomainEvent<
  'ClientPageUpdated',
  ClientPageContent & { previous_slug: string | null }
>;

/** The page left the public directory. Its slug stays reserved for it (nothing is freed). */
export type ClientPageUnpublished = DomainEvent<
  'ClientPageUnpublished',
  { client_page_id: number; organization_id: number; chatbot_id: number; slug: string }
>;

export type ClientPageEvent = ClientPagePublished | ClientPageUpdated | ClientPageUnpublished;

/**
 * Stream `client-page-slug-{slug}`: the first claim wins and is never released, so a slug once used (even an
 * older slug of a page, or one of an unpublished page) can never point to another organization's page.
 */
export type ClientPageSlugClaimed = DomainEvent<
  'ClientPageSlugClaimed',
  { slug: string; client_page_id: number; organization_id: number }
>;
export type ClientPageSlugEvent = ClientPageSlugClaimed;

/** Stream `client-page-chatbot-{chatbot_id}`: one page per chatbot; the claim names the page's id for good. */
export type ClientPageChatbotClaimed = DomainEvent<
  'ClientPageChatbotClaimed',
  { chatbot_id: number; organization_id: number; client_page_id: number }
>;
export type ClientPageChatbotEvent = ClientPageChatbotClaimed;
