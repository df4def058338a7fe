import { html, type SafeHtml } from '../../client-pages/pages/html';
import { CONSOLE_PATH } from '../console-session';

export const CONSOLE_CSS_PATH = `${CONSOLE_PATH}/assets/console.css`;

/** Headers of every console page: no script, nothing from elsewhere, no framing, never cached, not indexed. */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex',
};

/** What every signed-in page knows: the operator, the CSRF token for its forms, the organization in view. */
export interface ConsoleFrame {
  operator: string;
  csrf: string;
  organization: { organization_id: number; name: string } | null;
}

/** A hidden CSRF field for a form of this session. */
export const csrfField = (frame: ConsoleFrame): SafeHtml =>
  html`<input type="hidden" name="csrf" value="${frame.csrf}" />`;

/** A list as a table: header cells, then the rows; `stack` lays rows out as labelled cards on narrow screens. */
export const dataTable = (headers: readonly string[], rows: readonly SafeHtml[], stack = false): SafeHtml =>
  html`<div class="table-wrap">
    <table${stack ? html` class="stack"` : null}>
      <thead>
        <tr>
          ${headers.map((header) => html`<th>${header}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`;

/** The whole page: skip link, header with the organization's sections, main. */
export function consolePage(title: string, frame: ConsoleFrame | null, main: SafeHtml): string {
  const org = frame?.organization ?? null;
  const base = org ? `${CONSOLE_PATH}/orgs/${org.organization_id}` : '';
  const nav = org
    ? html`<nav aria-label="Organization">
        <ul>
          <li><a href="${base}/proposals">Proposals</a></li>
          <li><a href="${base}/memory">Memory</a></li>
          <li><a href="${base}/replies">Replies</a></li>
          <li><a href="${base}/connectors">Connectors</a></li>
        </ul>
      </nav>`
    : null;
  const who = frame
    ? html`<div class="who">
        <span data-testid="operator">${frame.operator}</span>
        <form class="inline" method="post" action="${CONSOLE_PATH}/logout">
          ${csrfField(frame)}<button class="secondary" type="submit">Sign out</button>
        </form>
      </div>`
    : null;
  return `<!doctype html>\n${html`<html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      <title>${title} — Cairn console</title>
      <link rel="stylesheet" href="${CONSOLE_CSS_PATH}" />
    </head>
    <body>
      <a class="skip-link" href="#main">Skip to main content</a>
      <header>
        <a class="brand" href="${CONSOLE_PATH}">Cairn console</a>
        ${org ? html`<span class="muted">${org.name}</span>` : null} ${nav} ${who}
      </header>
      <main id="main" tabindex="-1">${html`<h1>${title}</h1>`}${main}</main>
    </body>
  </html>`}`;
}
