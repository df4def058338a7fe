/** The console's stylesheet (served at /admin/console/assets/console.css; CSP allows no inline style). */
export const CONSOLE_CSS = `:root { color-scheme: light dark; --fg: #1d2330; --muted: #5a6272; --bg: #f6f7f9; --card: #fff;
  --line: #d9dce3; --accent: #1f5fbf; --focus: #f2b600; --add: #e6f4ea; --del: #fdecea; --warn: #8a5a00; }
@media (prefers-color-scheme: dark) { :root { --fg: #e9ebf0; --muted: #a7adba; --bg: #14171d; --card: #1c2029;
  --line: #343a47; --accent: #8ab4ff; --add: #1d3a27; --del: #43201d; --warn: #f2c14e; } }
* { box-sizing: border-box; }
body { margin: 0; font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible,
  main:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip-link { position: absolute; left: -999px; top: 0; padding: .5rem 1rem; background: var(--card); }
.skip-link:focus { left: 1rem; top: 1rem; z-index: 1; }
header, main { max-width: 72rem; margin: 0 auto; padding: .75rem 1.25rem; }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; border-bottom: 1px solid var(--line); }
header nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
.brand { font-weight: 700; text-decoration: none; }
.who { margin-left: auto; color: var(--muted); display: flex; gap: .5rem; align-items: center; }
h1 { font-size: 1.6rem; margin: .75rem 0; } h2 { font-size: 1.2rem; margin: 1.25rem 0 .5rem; }
.muted { color: var(--muted); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem; margin: .75rem 0; }
table { width: 100%; border-collapse: collapse; background: var(--card); }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.table-wrap { overflow-x: auto; }
input, select, textarea, button { font: inherit; padding: .45rem .7rem; border: 1px solid var(--line); border-radius: .375rem;
  background: var(--card); color: var(--fg); }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
button.secondary { background: var(--card); color: var(--accent); }
form.inline { display: inline; }
.actions { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; }
.field { display: flex; flex-direction: column; gap: .25rem; }
.diff { font: .9rem/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap; word-break: break-word;
  margin: 0; padding: .5rem; border: 1px solid var(--line); border-radius: .375rem; background: var(--card); }
.diff .add { background: var(--add); display: block; } .diff .del { background: var(--del); display: block; }
.diff .ctx { display: block; }
pre.content { white-space: pre-wrap; word-break: break-word; font: inherit; margin: 0; }
blockquote { margin: .25rem 0; padding: .25rem .75rem; border-left: 3px solid var(--accent); }
.notice { border-left: 4px solid var(--accent); } .warn { color: var(--warn); }
.token { font-family: ui-monospace, monospace; word-break: break-all; }
dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .25rem 1rem; }
dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
blockquote, .card { overflow-wrap: anywhere; }
@media (max-width: 40rem) { .who { margin-left: 0; } h1 { font-size: 1.35rem; } th, td { padding: .35rem .4rem; }
  table.stack thead { position: absolute; left: -9999px; }
  table.stack tr { display: block; border-bottom: 2px solid var(--line); padding: .25rem 0; }
  table.stack td { display: grid; grid-template-columns: 7.5rem minmax(0, 1fr); gap: .5rem; border: 0;
    overflow-wrap: anywhere; }
  table.stack td::before { content: attr(data-label); color: var(--muted); font-family: system-ui, sans-serif; } }
`;
