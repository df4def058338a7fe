import { clientPageChatbotDecider } from '../../../src/commands/client-pages/client-page-chatbot.decider';
import { clientPageSlugDecider } from '../../../src/commands/client-pages/client-page-slug.decider';
import {
  clientPageDecider,
  type PublishClientPage,
} from '../../../src/commands/client-pages/client-page.decider';
import type { ClientPageEvent } from '../../../src/events/client-pages/client-page.events';
import { givenDecider } from '../../support/decider-spec';

const given = givenDecider(clientPageDecider);
const content = {
  client_page_id: 5,
  organization_id: 7,
  chatbot_id: 9,
  slug: 'acme-dental',
  organization_summary: 'A dental clinic.',
  assistant_use_summary: 'Answers questions about opening hours.',
};
const publish: PublishClientPage = { type: 'PublishClientPage', ...content };
const published: ClientPageEvent = { type: 'ClientPagePublished', data: content };
const unpublished: ClientPageEvent = {
  type: 'ClientPageUnpublished',
  data: { client_page_id: 5, organization_id: 7, chatbot_id: 9, slug: 'acme-dental' },
};

describe('client page decider', () => {
  it('publishes a new page', () => {
    given([]).when(publish).then([published]);
  });

  it('publishing the same content again records nothing (idempotent)', () => {
    given([published]).when(publish).then([]);
  });

  it('changed summaries of a published page are one ClientPageUpdated with the full content', () => {
    given([published])
      .when({ ...publish, assistant_use_summary: 'Books appointments.' })
      .then([
        {
          type: 'ClientPageUpdated',
          data: { ...content, assistant_use_summary: 'Books appointments.', previous_slug: null },
        },
      ]);
  });

  it('a changed slug is an update naming the previous slug', () => {
    given([published])
      .when({ ...publish, slug: 'acme' })
      .then([
        { type: 'ClientPageUpdated', data: { ...content, slug: 'acme', previous_slug: 'acme-dental' } },
      ]);
  });

  it('unpublishes a published page once; a second unpublish records nothing', () => {
    given([published])
      .when({ type: 'UnpublishClientPage', organization_id: 7, slug: 'acme-dental' })
      .then([unpublished]);
    given([published, unpublished])
      .when({ type: 'UnpublishClientPage', organization_id: 7, slug: 'acme-dental' })
      .then([]);
  });

  it('publishing an unpublished page publishes it again, even with the same content', () => {
    given([published, unpublished]).when(publish).then([published]);
  });

  it('an unknown page, another organization or an older slug cannot unpublish it (404)', () => {
    given([])
      .when({ type: 'UnpublishClientPage', organization_id: 7, slug: 'acme-dental' })
      .thenThrows('not_found');
    given([published])
      .when({ type: 'UnpublishClientPage', organization_id: 8, slug: 'acme-dental' })
      .thenThrows('not_found');
    given([
      published,
      { type: 'ClientPageUpdated', data: { ...content, slug: 'acme', previous_slug: 'acme-dental' } },
    ])
      .when({ type: 'UnpublishClientPage', organization_id: 7, slug: 'acme-dental' })
      .thenThrows('not_found');
  });

  it('a page never moves to another organization or chatbot', () => {
    given([published])
      .when({ ...publish, organization_id: 8 })
      .thenThrows('not_found');
    given([published, unpublished])
      .when({ ...publish, chatbot_id: 10 })
      .thenThrows('not_found');
  });
});

describe('client page slug decider', () => {
  const given = givenDecider(clientPageSlugDecider);
  const claim = { type: 'ClaimClientPageSlug' as const, slug: 'acme', client_page_id: 5, organization_id: 7 };
  const claimed = {
    type: 'ClientPageSlugClaimed' as const,
    data: { slug: 'acme', client_page_id: 5, organization_id: 7 },
  };

  it('the first claim wins; the holder may claim again (no-op); any other page gets slug_taken', () => {
    given([]).when(claim).then([claimed]);
    given([claimed]).when(claim).then([]);
    given([claimed])
      .when({ ...claim, client_page_id: 6, organization_id: 8 })
      .thenThrows('slug_taken');
  });
});

describe('client page chatbot decider', () => {
  const given = givenDecider(clientPageChatbotDecider);
  const claim = { type: 'ClaimChatbotPage' as const, chatbot_id: 9, organization_id: 7, client_page_id: 5 };
  const claimed = {
    type: 'ClientPageChatbotClaimed' as const,
    data: { chatbot_id: 9, organization_id: 7, client_page_id: 5 },
  };

  it('binds one page id to a chatbot; a later claim records nothing and the state keeps the first id', () => {
    given([]).when(claim).then([claimed]);
    given([claimed])
      .when({ ...claim, client_page_id: 6 })
      .then([]);
    expect(
      [claimed].reduce(clientPageChatbotDecider.evolve, clientPageChatbotDecider.initialState()),
    ).toEqual({
      client_page_id: 5,
    });
  });
});
