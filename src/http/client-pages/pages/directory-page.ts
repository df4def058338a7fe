import type {
  ClientDirectoryEntry,
  ClientDirectoryView,
} from '../../../queries/client-pages/client-page-views';
import {
  DEFAULT_PER_PAGE,
  DIRECTORY_SORTS,
  type DirectoryParams,
  MAX_QUERY_LENGTH,
} from '../../../queries/client-pages/directory-options';
import { html, humanDate, type SafeHtml } from './html';
import { layout } from './layout';
import { paginationNav } from './pagination-nav';

function searchForm(view: ClientDirectoryView, params: DirectoryParams): SafeHtml {
  const options = DIRECTORY_SORTS.map(
    (sort) =>
      html`<option value="${sort}" ${sort === view.filters.sort ? html` selected` : null}>
        ${view.filters.sort_options[sort]}
      </option>`,
  );
  return html`<form role="search" method="get" action="/clients" class="search" data-testid="search-form">
    <div class="field">
      <label for="client-search">Search clients</label>
      <input
        type="search"
        id="client-search"
        name="q"
        value="${view.filters.q}"
        maxlength="${MAX_QUERY_LENGTH}"
        data-testid="search-input"
      />
    </div>
    <div class="field">
      <label for="client-sort">Sort by</label>
      <select id="client-sort" name="sort" data-testid="sort-select">
        ${options}
      </select>
    </div>
    ${params.per_page === DEFAULT_PER_PAGE ? null : html`<input type="hidden" name="per_page" value="${params.per_page}" />`}
    <button type="submit" data-testid="search-submit">Search</button>
  </form>`;
}

function entry(client: ClientDirectoryEntry): SafeHtml {
  return html`<li class="client" data-testid="client-item">
    <article aria-labelledby="client-${client.slug}">
      <h2 id="client-${client.slug}">
        <a href="/clients/${client.slug}" data-testid="client-link">${client.name}</a>
      </h2>
      <p>${client.organization_summary}</p>
      <p class="muted">
        ${client.website_host} · Published
        <time datetime="${client.published_at}">${humanDate(client.published_at)}</time>
      </p>
    </article>
  </li>`;
}

/** `/clients`: the search form, the summary, one page of clients, pagination. */
export function directoryPage(view: ClientDirectoryView, params: DirectoryParams): string {
  const list =
    view.clients.length > 0
      ? html`<ul class="clients" data-testid="client-list">
          ${view.clients.map(entry)}
        </ul>`
      : view.filters.q === ''
        ? null
        : html`<p data-testid="no-results"><a href="/clients">Show all clients</a></p>`;
  return layout(
    view.meta,
    html` <h1>Client directory</h1>
      <p class="lede">${view.meta.description}</p>
      ${searchForm(view, params)}
      <p class="summary" role="status" data-testid="results-summary">${view.summary}</p>
      ${list} ${paginationNav(view.pagination, params)}`,
  );
}
