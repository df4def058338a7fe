import type { ReplyView } from '../../../projections/replies.projection';
import type { Without } from '../../../queries/admin/admin-views';
import { html } from '../../client-pages/pages/html';
import { CONSOLE_PATH } from '../console-session';
import { consolePage, type ConsoleFrame, dataTable } from './console-layout';

type Reply = Without<ReplyView, 'id'>;

export function replyListPage(frame: ConsoleFrame, organizationId: number, replies: Reply[]): string {
  const base = `${CONSOLE_PATH}/orgs/${organizationId}/replies`;
  const rows = replies.map(
    (r) =>
      html`<tr>
        <td><a href="${base}/${r.reply_id}">${r.reply_id}</a></td>
        <td>${r.requested_at}</td>
        <td>${r.status}${r.outcome_code ? html` (${r.outcome_code})` : null}</td>
        <td>${r.references.length}</td>
        <td>${r.feedback.map((f) => f.rating).join(', ')}</td>
      </tr>`,
  );
  return consolePage(
    'Replies',
    frame,
    replies.length === 0
      ? html`<p>No reply yet.</p>`
      : dataTable(['Reply', 'Requested', 'Status', 'Evidence', 'Feedback'], rows),
  );
}

/** The receipt view: outcome, the evidence cited (item and revision), each claim's quotes, and the audit. */
export function replyPage(
  frame: ConsoleFrame,
  organizationId: number,
  reply: Reply,
  audit: {
    verified: boolean;
    streams: Array<{ stream: string; role: string; chain_verified: boolean; missing: boolean }>;
  },
): string {
  const memory = `${CONSOLE_PATH}/orgs/${organizationId}/memory`;
  const evidence = reply.references.map(
    (ref) =>
      html`<li>
        <strong>${ref.reference_id}</strong>:
        <a href="${memory}/${ref.memory_item_id}">item #${ref.memory_item_id}</a>, revision ${ref.revision}
      </li>`,
  );
  const claims = (reply.review?.claim_quotes ?? []).map(
    (quotes, index) =>
      html`<li>
        Claim ${index + 1}:
        ${quotes.length === 0 ? html`<span class="warn">no quote</span>` : quotes.map((q) => html`<blockquote data-testid="quote">${q.text} <span class="muted">(${q.reference_id})</span></blockquote>`)}
      </li>`,
  );
  const streams = audit.streams.map(
    (s) =>
      html`<tr>
        <td class="token">${s.stream}</td>
        <td>${s.role}</td>
        <td>${s.missing ? 'missing' : s.chain_verified ? 'verified' : 'BROKEN'}</td>
      </tr>`,
  );
  return consolePage(
    `Reply ${reply.reply_id}`,
    frame,
    html`<dl class="card">
        <dt>Status</dt>
        <dd data-testid="reply-status">
          ${reply.status}${reply.outcome_code ? html` (${reply.outcome_code})` : null}
        </dd>
        <dt>Thread</dt>
        <dd>${reply.external_thread_id}</dd>
        <dt>Requested</dt>
        <dd>${reply.requested_at}</dd>
        <dt>Receipt</dt>
        <dd class="token">${reply.receipt_hash ?? 'none'}</dd>
        <dt>Reviewer</dt>
        <dd>
          ${reply.review ? `${reply.review.reviewer_model}: ${reply.review.sufficient ? 'sufficient' : 'insufficient'}` : 'none'}
        </dd>
      </dl>
      <h2>Evidence</h2>
      ${
        evidence.length
          ? html`<ul data-testid="evidence">
              ${evidence}
            </ul>`
          : html`<p>No evidence cited.</p>`
      }
      <h2>Claims and their quotes</h2>
      ${
        claims.length
          ? html`<ol>
              ${claims}
            </ol>`
          : html`<p>No reviewed claims.</p>`
      }
      <h2>Audit</h2>
      <p data-testid="audit">
        ${audit.verified ? 'Every bound stream verifies.' : html`<strong class="warn">Audit failed.</strong>`}
      </p>
      ${dataTable(['Stream', 'Role', 'Chain'], streams)}`,
  );
}
