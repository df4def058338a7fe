import type { ErrorDetail } from '../../../common/errors';
import { html } from './html';
import { layout } from './layout';

const TITLES: Record<number, string> = {
  404: 'Page not found',
  422: 'This search cannot be shown',
  429: 'Too many requests',
};

/** An error as a page for people: what went wrong, the details naming parameters, a way back. Not indexed. */
export function errorPage(status: number, message: string, details: readonly ErrorDetail[]): string {
  const title = TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'Request not accepted');
  const items = details
    .filter((detail) => detail.field !== undefined)
    .map((detail) => html`<li><code>${detail.field}</code>: ${detail.message}</li>`);
  return layout(
    { title: `${title} — Cairn`, description: message, canonical_url: null },
    html` <h1>${title}</h1>
      <p data-testid="error-message">${message}</p>
      ${
        items.length > 0
          ? html`<ul class="error-details" data-testid="error-details">
              ${items}
            </ul>`
          : null
      }
      <p><a href="/clients" data-testid="back-link">Back to the client directory</a></p>`,
  );
}
