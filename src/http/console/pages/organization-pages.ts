import type { OrganizationDocument } from '../../../projections/organizations.projection';
import type { Without } from '../../../queries/admin/admin-views';
import { html } from '../../client-pages/pages/html';
import { CONSOLE_PATH } from '../console-session';
import { consolePage, type ConsoleFrame, dataTable } from './console-layout';

/** The console's home: every organization, each with its sections. */
export function organizationsPage(
  frame: ConsoleFrame,
  organizations: Array<Without<OrganizationDocument, 'id'>>,
): string {
  const rows = organizations.map((org) => {
    const base = `${CONSOLE_PATH}/orgs/${org.organization_id}`;
    return html`<tr>
      <td>${org.organization_id}</td>
      <td><a href="${base}/proposals">${org.name}</a></td>
      <td>${org.slug}</td>
      <td>${org.agent_activity_paused ? 'paused' : 'active'}</td>
      <td>
        <a href="${base}/memory">memory</a> · <a href="${base}/replies">replies</a> ·
        <a href="${base}/connectors">connectors</a>
      </td>
    </tr>`;
  });
  return consolePage(
    'Organizations',
    frame,
    organizations.length === 0
      ? html`<p>No organization yet. Create one with <code>POST /admin/api/v1/organizations</code>.</p>`
      : dataTable(['Id', 'Name', 'Slug', 'Assistants', 'Sections'], rows),
  );
}
