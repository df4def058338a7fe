import { SITE_NAME } from '../../../queries/client-pages/client-page-views';
import { html, type SafeHtml } from './html';

export const STYLESHEET_PATH = '/clients/assets/site.css';
export const FAVICON_PATH = '/clients/assets/favicon.svg';

/**
 * Headers of every HTML page: no script may run (there is none), styles and images only from this origin, forms
 * only to this origin, no framing, no MIME sniffing.
 */
export const HTML_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};
export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

export interface HeadMeta {
  title: string;
  description: string;
  /** null for pages that must not be indexed (errors): no canonical link or Open Graph tags then. */
  canonical_url: string | null;
}

/** The whole document: head (title, description, canonical, Open Graph), skip link, header, main, footer. */
export function layout(meta: HeadMeta, main: SafeHtml): string {
  const indexable =
    meta.canonical_url === null
      ? html`<meta name="robots" content="noindex" />`
      : html`<link rel="canonical" href="${meta.canonical_url}" />
          <meta property="og:title" content="${meta.title}" />
          <meta property="og:description" content="${meta.description}" />
          <meta property="og:url" content="${meta.canonical_url}" />
          <meta property="og:type" content="website" />
          <meta property="og:site_name" content="${SITE_NAME}" />`;
  return `<!doctype html>\n${html`<html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>${meta.title}</title>
      <meta name="description" content="${meta.description}" />
      ${indexable}
      <link rel="stylesheet" href="${STYLESHEET_PATH}" />
      <link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml" />
    </head>
    <body>
      <a class="skip-link" href="#main">Skip to main content</a>
      <header class="site-header">
        <a class="brand" href="/clients" data-testid="home-link">${SITE_NAME}</a>
        <span class="tagline">Client directory</span>
      </header>
      <main id="main" tabindex="-1">${main}</main>
      <footer class="site-footer">
        <p>Organizations listed here published these pages about their ${SITE_NAME} website assistant.</p>
        <p><a href="/api/cairn-client-pages">The directory as JSON</a></p>
      </footer>
    </body>
  </html> `}`;
}
