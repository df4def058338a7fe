import { NotFoundError } from '../../common/errors';
import type { ClientPageContent, ClientPageEvent } from '../../events/client-pages/client-page.events';
import type { Decider } from '../shared/decider';

/** Publish (or republish, or change) the page of a chatbot; the values were validated by the handler. */
export type PublishClientPage = { type: 'PublishClientPage' } & ClientPageContent;

/** Take the page out of the directory. The organization and the page's current slug name it. */
export interface UnpublishClientPage {
  type: 'UnpublishClientPage';
  organization_id: number;
  slug: string;
}

export type ClientPageCommand = PublishClientPage | UnpublishClientPage;

export type ClientPageState =
  { exists: false } | ({ exists: true; status: 'published' | 'unpublished' } & ClientPageContent);

function content(source: ClientPageContent): ClientPageContent {
  const { client_page_id, organization_id, chatbot_id, slug, organization_summary, assistant_use_summary } =
    source;
  return { client_page_id, organization_id, chatbot_id, slug, organization_summary, assistant_use_summary };
}

function sameContent(a: ClientPageContent, b: ClientPageContent): boolean {
  return (
    a.slug === b.slug &&
    a.organization_summary === b.organization_summary &&
    a.assistant_use_summary === b.assistant_use_summary
  );
}

const notFound = (): NotFoundError => new NotFoundError('client page not found');

/**
 * One page per chatbot (`client-page-{id}`). Publishing the same content again records nothing; changed content
 * of a published page is `ClientPageUpdated`; publishing an unpublished page publishes it again (with the content
 * given). Unpublishing an unpublished page records nothing.
 */
export const clientPageDecider: Decider<ClientPageCommand, ClientPageState, ClientPageEvent> = {
  initialState: () => ({ exists: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'ClientPagePublished':
      case 'ClientPageUpdated':
        return { exists: true, status: 'published', ...content(event.data) };
      case 'ClientPageUnpublished':
        return state.exists ? { ...state, status: 'unpublished' } : state;
    }
  },

  decide(command, state) {
    if (command.type === 'UnpublishClientPage') {
      if (!state.exists || state.organization_id !== command.organization_id || state.slug !== command.slug) {
        throw notFound();
      }
      if (state.status === 'unpublished') return [];
      const { client_page_id, organization_id, chatbot_id, slug } = state;
      return [{ type: 'ClientPageUnpublished', data: { client_page_id, organization_id, chatbot_id, slug } }];
    }
    const next = content(command);
    if (
      state.exists &&
      (state.organization_id !== next.organization_id || state.chatbot_id !== next.chatbot_id)
    ) {
      throw notFound();
    }
    if (!state.exists || state.status === 'unpublished') return [{ type: 'ClientPagePublished', data: next }];
    if (sameContent(state, next)) return [];
    const previous_slug = state.slug === next.slug ? null : state.slug;
    return [{ type: 'ClientPageUpdated', data: { ...next, previous_slug } }];
  },
};
