import type { ClientPageDetailView } from '../../../queries/client-pages/client-page-views';
import { html, humanDate, type SafeHtml } from './html';
import { layout } from './layout';

/** Only an http(s) URL becomes a link (the read model holds nothing else, this is the last line of defence). */
function websiteLink(view: ClientPageDetailView): SafeHtml | null {
  const { website_url: url, website_host: host } = view.organization;
  if (!/^https?:\/\//i.test(url)) return null;
  return html`<p>
    <a class="website" href="${url}" rel="noopener noreferrer" data-testid="website-link">Visit ${host}</a>
  </p>`;
}

/** `/clients/{slug}`: the organization, its assistant and both summaries. */
export function detailPage(view: ClientPageDetailView): string {
  const { organization, chatbot, content } = view;
  return layout(
    view.meta,
    html` <nav aria-label="Breadcrumb" class="breadcrumb">
        <a href="/clients" data-testid="back-link">All clients</a>
      </nav>
      <article class="client-page" data-testid="client-page">
        <h1 data-testid="client-name">${organization.name}</h1>
        <p class="muted">
          Assistant: <span data-testid="chatbot-name">${chatbot.name}</span>${
            chatbot.allowed_domain === ''
              ? null
              : html` on <span data-testid="allowed-domain">${chatbot.allowed_domain}</span>`
          }
          · Published
          <time datetime="${chatbot.published_at}" data-testid="published-at"
            >${humanDate(chatbot.published_at)}</time
          >
        </p>
        <section aria-labelledby="about-heading">
          <h2 id="about-heading">About ${organization.name}</h2>
          <p data-testid="organization-summary">${content.organization_summary}</p>
        </section>
        <section aria-labelledby="assistant-heading">
          <h2 id="assistant-heading">How the assistant helps</h2>
          <p data-testid="assistant-use-summary">${content.assistant_use_summary}</p>
        </section>
        ${websiteLink(view)}
      </article>`,
  );
}
