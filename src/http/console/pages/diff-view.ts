import { html, type SafeHtml } from '../../client-pages/pages/html';

/** A line diff (`+ `, `- `, two spaces) as marked lines; the marks are in the text too, not only in colour. */
export function diffView(lines: readonly string[]): SafeHtml {
  if (lines.length === 0) return html`<p class="muted">No change to show.</p>`;
  const marked = lines.map((line) => {
    const kind = line.startsWith('+ ') ? 'add' : line.startsWith('- ') ? 'del' : 'ctx';
    return html`<span class="${kind}">${line}</span>`;
  });
  return html`<pre class="diff" data-testid="diff">${marked}</pre>`;
}
