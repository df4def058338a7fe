import { forEachMatch, type RawFinding } from './finding';
import { isPlaceholder } from './value-heuristics';

/**
 * Credentials written positionally rather than as `key = value`:
 * - a login/auth call with literal user and password arguments: `conn.login('me@corp.com', 'hunter2')`;
 * - `.pgpass`-style lines `host:port:database:user:password`.
 */
const LOGIN_CALL =
  /\b(?:login|logIn|signIn|sign_in|authenticate|auth|connect|createConnection|basicAuth)\s*\(\s*(["'])[^"'\n]{1,200}\1\s*,\s*(["'])([^"'\n]{3,200})\2/g;
const PGPASS_LINE = /^([A-Za-z0-9.*_-]+):(\d{1,5}|\*):([^:\s#]+):([^:\s]+):((?:\\:|[^:\s])+)$/gm;

export function detectInlineCredentials(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  forEachMatch(text, LOGIN_CALL, (match) => {
    const password = match[3];
    if (isPlaceholder(password)) return;
    const start = match.index + match[0].length - 1 - password.length;
    findings.push({
      kind: 'secret',
      rule: 'password_in_login_call',
      start,
      end: start + password.length,
      description: 'password passed literally to a login call',
    });
  });
  forEachMatch(text, PGPASS_LINE, (match) => {
    const password = match[5];
    if (isPlaceholder(password)) return;
    const start = match.index + match[0].length - password.length;
    findings.push({
      kind: 'secret',
      rule: 'pgpass_entry',
      start,
      end: start + password.length,
      description: 'password in a host:port:database:user:password line',
    });
  });
  return findings;
}
