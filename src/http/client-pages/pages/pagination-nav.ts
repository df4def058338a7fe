import type { DirectoryParams } from '../../../queries/client-pages/directory-options';
import { directoryQueryString } from '../../../queries/client-pages/directory-options';
import {
  NEXT_LABEL,
  PREVIOUS_LABEL,
  type Pagination,
  type PaginationLink,
} from '../../../queries/client-pages/directory-pagination';
import { html, type SafeHtml } from './html';

/** Links of the HTML pages stay relative to this origin (the API's links are absolute). */
export const directoryHref = (params: DirectoryParams, page: number): string =>
  `/clients${directoryQueryString(params, page)}`;

function item(link: PaginationLink, params: DirectoryParams): SafeHtml {
  const role = link.label === PREVIOUS_LABEL ? 'previous' : link.label === NEXT_LABEL ? 'next' : null;
  if (link.page === null) {
    return role === null
      ? html`<li><span class="gap" aria-hidden="true">${link.label}</span></li>`
      : html`<li>
          <span class="disabled" aria-disabled="true" data-testid="pagination-${role}">${link.label}</span>
        </li>`;
  }
  const href = directoryHref(params, link.page);
  if (role !== null) {
    return html`<li>
      <a href="${href}" rel="${role === 'previous' ? 'prev' : 'next'}" data-testid="pagination-${role}"
        >${link.label}</a
      >
    </li>`;
  }
  return html`<li>
    <a
      href="${href}"
      aria-label="Page ${link.page}"
      ${link.active ? html` aria-current="page"` : null}
      data-testid="pagination-page-${link.page}"
      >${link.label}</a
    >
  </li>`;
}

/** Previous, a window of page numbers (the current one marked aria-current="page"), Next; none for one page. */
export function paginationNav(pagination: Pagination, params: DirectoryParams): SafeHtml | null {
  if (pagination.last_page <= 1 && pagination.current_page <= 1) return null;
  return html`<nav aria-label="Pagination" class="pagination" data-testid="pagination">
    <ul>
      ${pagination.links.map((link) => item(link, params))}
    </ul>
  </nav>`;
}
