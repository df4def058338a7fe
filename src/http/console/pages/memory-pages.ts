import type { MemoryItemFilters, MemoryItemRow, MemoryRevision } from '../../../queries/admin/admin-views';
import { html } from '../../client-pages/pages/html';
import { CONSOLE_PATH } from '../console-session';
import { consolePage, type ConsoleFrame, dataTable } from './console-layout';
import { diffView } from './diff-view';
import { lineDiff } from '../../../commands/memory/correction-target';

/** The memory browser: a filter form (GET), one page of items, a link to the next page. */
export function memoryListPage(
  frame: ConsoleFrame,
  organizationId: number,
  filters: MemoryItemFilters,
  page: { items: MemoryItemRow[]; next_cursor: number | null; total: number },
): string {
  const base = `${CONSOLE_PATH}/orgs/${organizationId}/memory`;
  const option = (value: string, current: string | null) =>
    html`<option value="${value}" ${value === (current ?? '') ? html`selected` : null}>
      ${value || 'any'}
    </option>`;
  const next = new URLSearchParams();
  if (filters.q) next.set('q', filters.q);
  if (filters.lifecycle_status) next.set('lifecycle_status', filters.lifecycle_status);
  if (filters.audience) next.set('audience', filters.audience);
  if (page.next_cursor !== null) next.set('cursor', String(page.next_cursor));
  const rows = page.items.map(
    (item) =>
      html`<tr>
        <td data-label="Id">${item.memory_item_id}</td>
        <td data-label="Title"><a href="${base}/${item.memory_item_id}">${item.title}</a></td>
        <td data-label="Audience">${item.audience}</td>
        <td data-label="Authority">${item.authority_level}</td>
        <td data-label="Lifecycle">${item.lifecycle_status}</td>
        <td data-label="Revision">${item.revision}</td>
      </tr>`,
  );
  return consolePage(
    'Memory',
    frame,
    html`<form class="actions card" method="get" action="${base}">
        <div class="field">
          <label for="q">Title contains</label
          ><input id="q" name="q" value="${filters.q ?? ''}" maxlength="200" />
        </div>
        <div class="field">
          <label for="lifecycle_status">Lifecycle</label>
          <select id="lifecycle_status" name="lifecycle_status">
            ${['', 'active', 'archived'].map((v) => option(v, filters.lifecycle_status))}
          </select>
        </div>
        <div class="field">
          <label for="audience">Audience</label>
          <select id="audience" name="audience">
            ${['', 'customer_safe', 'internal'].map((v) => option(v, filters.audience))}
          </select>
        </div>
        <button type="submit">Filter</button>
      </form>
      <p class="muted" data-testid="total">${page.total} item(s) match.</p>
      ${dataTable(['Id', 'Title', 'Audience', 'Authority', 'Lifecycle', 'Rev.'], rows, true)}
      ${page.next_cursor !== null ? html`<p><a href="${base}?${next.toString()}" rel="next">Next page</a></p>` : null}`,
  );
}

/** One item: its fields, its current content, and each revision with the diff from the one before. */
export function memoryItemPage(
  frame: ConsoleFrame,
  detail: { item: MemoryItemRow & { content: string }; revisions: MemoryRevision[] },
): string {
  const { item, revisions } = detail;
  const history = revisions.map((rev, index) => {
    const before = revisions[index + 1];
    return html`<section class="card" aria-labelledby="rev-${String(rev.revision)}">
      <h3 id="rev-${String(rev.revision)}">Revision ${rev.revision}: ${rev.title}</h3>
      <p class="muted">
        ${rev.recorded_at} by
        ${rev.actor}${rev.proposal_id !== null ? html` (proposal #${String(rev.proposal_id)})` : null}
      </p>
      ${before ? diffView(lineDiff(before.content, rev.content)) : html`<pre class="content">${rev.content}</pre>`}
    </section>`;
  });
  return consolePage(
    `Item ${item.memory_item_id}: ${item.title}`,
    frame,
    html`<dl class="card">
        <dt>Audience</dt>
        <dd>${item.audience}</dd>
        <dt>Authority</dt>
        <dd>${item.authority_level}</dd>
        <dt>Visibility</dt>
        <dd>${item.visibility}</dd>
        <dt>Lifecycle</dt>
        <dd data-testid="lifecycle">${item.lifecycle_status}</dd>
        <dt>Source</dt>
        <dd>${item.source_label}</dd>
      </dl>
      <h2>Current content (revision ${item.revision})</h2>
      <div class="card"><pre class="content" data-testid="content">${item.content}</pre></div>
      <h2>Revisions, newest first</h2>
      ${history}`,
  );
}
