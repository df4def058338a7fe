import type { ProposalShow } from '../../../commands/memory/preview-proposal-approval';
import type { MemoryProposalDocument } from '../../../projections/memory-proposals.projection';
import type { Without } from '../../../queries/admin/admin-views';
import { html } from '../../client-pages/pages/html';
import { CONSOLE_PATH } from '../console-session';
import { consolePage, csrfField, type ConsoleFrame, dataTable } from './console-layout';
import { diffView } from './diff-view';

const STATUSES = ['captured', 'approved', 'rejected'] as const;

/** The review queue: proposals of one status, newest first, each linking to its diff. */
export function proposalQueuePage(
  frame: ConsoleFrame,
  organizationId: number,
  status: string,
  proposals: Array<Without<MemoryProposalDocument, 'id'>>,
): string {
  const base = `${CONSOLE_PATH}/orgs/${organizationId}/proposals`;
  const tabs = STATUSES.map((s) =>
    s === status
      ? html`<li><strong aria-current="page">${s}</strong></li>`
      : html`<li><a href="${base}?status=${s}">${s}</a></li>`,
  );
  const rows = proposals.map(
    (p) =>
      html`<tr>
        <td>${p.proposal_id}</td>
        <td><a href="${base}/${p.proposal_id}" data-testid="proposal-link">${p.title}</a></td>
        <td>
          ${p.target_memory_item_id === null ? 'new item' : html`correction of #${String(p.target_memory_item_id)}`}
        </td>
        <td>${p.status}</td>
      </tr>`,
  );
  return consolePage(
    'Proposals',
    frame,
    html`<nav aria-label="Status">
        <ul class="actions">
          ${tabs}
        </ul>
      </nav>
      ${
        proposals.length === 0
          ? html`<p data-testid="empty-queue">No ${status} proposal.</p>`
          : dataTable(['Id', 'Title', 'Kind', 'Status'], rows)
      }`,
  );
}

/** One proposal: its diff against the cited revision, what approval would apply, and the review forms. */
export function proposalPage(
  frame: ConsoleFrame,
  organizationId: number,
  shown: ProposalShow,
  notice: string | null,
): string {
  const { proposal, target, diff, approval } = shown;
  const action = `${CONSOLE_PATH}/orgs/${organizationId}/proposals/${proposal.proposal_id}`;
  const plan = approval?.refused
    ? html`<p class="warn" data-testid="refused">Approval would be refused: ${approval.refused.message}</p>`
    : approval?.policy
      ? html`<p data-testid="policy">
          Approval would record it as <strong>${approval.policy.applied.audience}</strong>,
          ${approval.policy.applied.authority_level}.
        </p>`
      : null;
  const forms =
    proposal.status === 'captured'
      ? html`<h2>Review</h2>
          <div class="actions">
            <form class="card" method="post" action="${action}/approve">
              ${csrfField(frame)}
              ${
                target === null
                  ? html`<div class="field">
                      <label for="audience">Audience</label>
                      <select id="audience" name="audience">
                        <option value="">as proposed</option>
                        <option value="customer_safe">customer_safe</option>
                        <option value="internal">internal</option>
                      </select>
                    </div>`
                  : html`<p>
                      <label
                        ><input type="checkbox" name="rebase" value="true" /> Re-base on the current
                        revision</label
                      >
                    </p>`
              }
              <button type="submit" data-testid="approve">Approve</button>
            </form>
            <form class="card" method="post" action="${action}/reject">
              ${csrfField(frame)}
              <div class="field">
                <label for="reason">Reason (kept in the history)</label>
                <input id="reason" name="reason" maxlength="2000" />
              </div>
              <button class="secondary" type="submit" data-testid="reject">Reject</button>
            </form>
          </div>`
      : html`<p data-testid="status">This proposal is <strong>${proposal.status}</strong>.</p>`;
  return consolePage(
    `Proposal ${proposal.proposal_id}: ${proposal.title}`,
    frame,
    html`${notice ? html`<p class="card notice" role="status" data-testid="notice">${notice}</p>` : null}
      <dl class="card">
        <dt>Kind</dt>
        <dd>
          ${target === null ? 'a new item' : html`a correction of item #${String(target.memory_item_id)}`}
        </dd>
        ${
          target
            ? html`<dt>Cited revision</dt>
                <dd>${target.cited_revision ?? 'none'} (current: ${target.current_revision ?? 'none'})</dd>`
            : null
        }
        <dt>Status</dt>
        <dd>${proposal.status}</dd>
      </dl>
      <h2>Diff</h2>
      ${
        diff.old_text
          ? html`<p class="muted">Cited text:</p>
              <blockquote>${diff.old_text}</blockquote>`
          : null
      }
      ${diffView(diff.lines)} ${plan} ${forms}`,
  );
}
