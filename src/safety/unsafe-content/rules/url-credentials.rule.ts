import { forEachMatch, type RawFinding } from './finding';
import { isPlaceholder } from './value-heuristics';

/**
 * `scheme://user:password@host` in any URL (http, ftp, database and broker URLs, git remotes). The user part may
 * itself contain `@` (`https://me@corp.com:pw@host`), the password anything but whitespace and `/`.
 * Placeholders are ignored: `${DB_PASSWORD}`, `<password>`, `****`, `:password@` / `:pass@` / `:secret@` literally,
 * `user:pass@`-style documentation pairs.
 */
const URL_WITH_PASSWORD =
  /\b[a-z][a-z0-9+.-]{1,20}:\/\/([^\s:/?#@'"<>]*(?:@[^\s:/?#@'"<>]+)?):([^\s/'"<>]+)@([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\])/gi;

/**
 * Oracle connect strings (issue 29): `user/password@//host:1521/SERVICE` (EZConnect), `user/password@host:1521/SVC`
 * and `user/password@(DESCRIPTION=…)` (TNS), as sqlplus, Toad and JDBC thin take them.
 */
const ORACLE_CONNECT =
  /(?<![\w/.$#-])[A-Za-z][\w$#]{0,29}\/([^\s/@'"<>]{4,128})@(?:\/\/[A-Za-z0-9.-]+|\(DESCRIPTION=|[A-Za-z0-9.-]+:\d{2,5}\/)/gi;

const DOC_PASSWORDS = new Set(['password', 'pass', 'passwd', 'pwd', 'secret', 'pw', 'p@ssw0rd', '...']);

export function detectUrlCredentials(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  forEachMatch(text, URL_WITH_PASSWORD, (match) => {
    const password = match[2];
    if (isPlaceholder(password) || DOC_PASSWORDS.has(password.toLowerCase())) return;
    if (/^%[0-9A-F]{2}/i.test(password) && isPlaceholder(decodeURIComponentSafe(password))) return;
    findings.push({
      kind: 'secret',
      rule: 'password_in_url',
      start: match.index,
      end: match.index + match[0].length,
      description: 'password embedded in a URL',
    });
  });
  forEachMatch(text, ORACLE_CONNECT, (match) => {
    const password = match[1]!;
    if (isPlaceholder(password) || DOC_PASSWORDS.has(password.toLowerCase())) return;
    findings.push({
      kind: 'secret',
      rule: 'password_in_connect_string',
      start: match.index,
      end: match.index + match[0].length,
      description: 'password in an Oracle connect string',
    });
  });
  return findings;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
