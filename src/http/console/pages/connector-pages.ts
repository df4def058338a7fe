import type { ConnectorRow } from '../../../queries/admin/admin-views';
import { html } from '../../client-pages/pages/html';
import { CONSOLE_PATH } from '../console-session';
import { consolePage, csrfField, type ConsoleFrame, dataTable } from './console-layout';

/** Connectors and their tokens; rotating shows the new token once, on the page that answers the form. */
export function connectorsPage(
  frame: ConsoleFrame,
  organizationId: number,
  connectors: ConnectorRow[],
  issued: { connector_id: number; token: string } | null,
): string {
  const base = `${CONSOLE_PATH}/orgs/${organizationId}/connectors`;
  const rows = connectors.map(
    (c) =>
      html`<tr>
        <td data-label="Id">${c.connector_id}</td>
        <td data-label="Name">${c.name}</td>
        <td data-label="Capabilities">${c.capabilities.join(', ')}</td>
        <td data-label="Grounding">${c.grounding_policy}</td>
        <td data-label="Active token" class="token">${c.active_token_id ?? 'revoked'}</td>
        <td data-label="Token">
          <div class="actions">
            <form class="inline" method="post" action="${base}/${c.connector_id}/rotate-token">
              ${csrfField(frame)}<button class="secondary" type="submit">Rotate token</button>
            </form>
            ${
              c.active_token_id
                ? html`<form class="inline" method="post" action="${base}/${c.connector_id}/revoke-token">
                    ${csrfField(frame)}<button class="secondary" type="submit">Revoke</button>
                  </form>`
                : null
            }
          </div>
        </td>
      </tr>`,
  );
  return consolePage(
    'Connectors',
    frame,
    html`${
      issued
        ? html`<div class="card notice" role="status">
            <p>New token of connector #${issued.connector_id} — shown once, copy it now:</p>
            <p class="token" data-testid="issued-token">${issued.token}</p>
          </div>`
        : null
    }
    ${dataTable(['Id', 'Name', 'Capabilities', 'Grounding', 'Active token', 'Token'], rows, true)}`,
  );
}
