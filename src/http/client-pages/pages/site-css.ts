/** The stylesheet of the public pages, served at /clients/assets/site.css (no inline styles: CSP style-src 'self'). */
export const SITE_CSS = `:root { color-scheme: light dark; --fg: #1d2330; --muted: #5a6272; --bg: #fbfaf7; --card: #ffffff;
  --line: #d9dce3; --accent: #1f5fbf; --focus: #f2b600; }
@media (prefers-color-scheme: dark) { :root { --fg: #e9ebf0; --muted: #a7adba; --bg: #14171d; --card: #1c2029;
  --line: #343a47; --accent: #8ab4ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, main:focus-visible {
  outline: 3px solid var(--focus); outline-offset: 2px; }
.skip-link { position: absolute; left: -999px; top: 0; padding: .5rem 1rem; background: var(--card); }
.skip-link:focus { left: 1rem; top: 1rem; z-index: 1; }
.site-header, .site-footer, main { max-width: 60rem; margin: 0 auto; padding: 1rem 1.25rem; }
.site-header { display: flex; gap: 1rem; align-items: baseline; border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; font-size: 1.25rem; text-decoration: none; }
.tagline, .muted, .site-footer { color: var(--muted); }
.site-footer { border-top: 1px solid var(--line); font-size: .9rem; }
h1 { font-size: 2rem; line-height: 1.2; margin: 1rem 0 .5rem; }
.search { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; margin: 1.5rem 0 1rem; }
.field { display: flex; flex-direction: column; gap: .25rem; }
.field:first-child { flex: 1 1 16rem; }
input, select, button { font: inherit; padding: .5rem .75rem; border: 1px solid var(--line); border-radius: .375rem;
  background: var(--card); color: var(--fg); }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
.clients { list-style: none; padding: 0; display: grid; gap: 1rem; }
.client, .client-page { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: 1rem 1.25rem; }
.client h2 { margin: 0 0 .25rem; font-size: 1.25rem; }
.pagination ul { list-style: none; display: flex; flex-wrap: wrap; gap: .375rem; padding: 0; margin: 1.5rem 0; }
.pagination a, .pagination span { display: inline-block; min-width: 2.5rem; padding: .375rem .625rem; text-align: center;
  border: 1px solid var(--line); border-radius: .375rem; text-decoration: none; }
.pagination [aria-current="page"] { background: var(--accent); color: #fff; border-color: var(--accent); }
.pagination .disabled, .pagination .gap { color: var(--muted); border-color: transparent; }
.breadcrumb { margin-top: 1rem; }
.error-details code { font-size: .95em; }
`;
