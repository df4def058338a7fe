import { html } from '../../client-pages/pages/html';
import { CONSOLE_PATH } from '../console-session';
import { consolePage } from './console-layout';

/** Sign in with an operator token (`cairn admin-token:create`); `problem` says why the last try failed. */
export function loginPage(problem: string | null): string {
  return consolePage(
    'Sign in',
    null,
    html`${problem ? html`<p class="card warn" role="alert" data-testid="login-error">${problem}</p>` : null}
      <form class="card" method="post" action="${CONSOLE_PATH}/login">
        <div class="field">
          <label for="token">Operator token</label>
          <input id="token" name="token" type="password" autocomplete="off" required autofocus />
        </div>
        <p class="muted">
          Create one on the server: <code>cairn admin-token:create --scopes read,proposals:review</code>
        </p>
        <button type="submit">Sign in</button>
      </form>`,
  );
}

/** An error for a signed-in operator: the message from the one error mapping, and a way back. */
export function consoleErrorPage(status: number, message: string): string {
  return consolePage(
    status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : 'Request not accepted',
    null,
    html`<p data-testid="error-message">${message}</p>
      <p><a href="${CONSOLE_PATH}">Back to the console</a></p>`,
  );
}
