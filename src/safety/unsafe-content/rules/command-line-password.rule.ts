import { forEachMatch, type RawFinding } from './finding';
import { isPlaceholder } from './value-heuristics';

/**
 * Passwords given on a command line (issue 29): `docker login -p X`, `mysql -pX`, `sshpass -p X`, `curl -u user:X`,
 * `redis-cli -a X`, `sqlcmd -P X`, `ldapsearch -w X`, `smbclient -U user%X`, `keytool -storepass X`,
 * `openssl … -passout pass:X`, `htpasswd -b FILE USER X`, `rabbitmqctl add_user USER X`, `net use … /user:U X`.
 * The tool name must appear earlier on the same line (at most 200 characters before the flag, so the patterns stay
 * linear). Placeholders (`$VAR`, `<password>`, `*`, `env:X`, `file:X`) are not flagged; `mysql -p` alone prompts.
 */
const ARG = String.raw`(?:"([^"\n]{4,128})"|'([^'\n]{4,128})'|([^\s"'\x60]{4,128}))`;
const BEFORE = String.raw`[^\n]{0,200}?\s`;

const COMMAND_LINES: RegExp[] = [
  new RegExp(
    String.raw`\b(?:docker|podman|nerdctl|helm)\s+(?:registry\s+)?login\b${BEFORE}(?:-p|--password)(?:\s+|=)${ARG}`,
    'g',
  ),
  new RegExp(String.raw`\b(?:mysql|mysqldump|mysqladmin|mariadb)\b${BEFORE}(?:-p|--password=)${ARG}`, 'g'),
  new RegExp(String.raw`\bsshpass\s+-p\s*${ARG}`, 'g'),
  new RegExp(
    String.raw`\bcurl\b${BEFORE}(?:-u|--user)\s+(?:"[^"\s:]{1,64}:([^"\n]{4,128})"|'[^'\s:]{1,64}:([^'\n]{4,128})'|[^\s:"']{1,64}:([^\s"'\x60]{4,128}))`,
    'g',
  ),
  new RegExp(String.raw`\bredis-cli\b${BEFORE}(?:-a|--pass)\s+${ARG}`, 'g'),
  new RegExp(String.raw`\b(?:sqlcmd|bcp|osql)\b${BEFORE}-P\s*${ARG}`, 'g'),
  new RegExp(String.raw`\bldap(?:search|add|modify|delete|passwd)\b${BEFORE}-w\s+${ARG}`, 'g'),
  new RegExp(String.raw`\bsmbclient\b${BEFORE}(?:-U|--user)\s+[^\s%]{1,64}%${ARG}`, 'g'),
  new RegExp(
    String.raw`\b(?:keytool|jarsigner)\b${BEFORE}-(?:storepass|keypass|srcstorepass|deststorepass)\s+${ARG}`,
    'g',
  ),
  new RegExp(String.raw`\bopenssl\b${BEFORE}-pass(?:in|out)\s+pass:${ARG}`, 'g'),
  new RegExp(
    String.raw`\bhtpasswd\s+(?:-[a-zA-Z]+\s+){0,4}-[a-zA-Z]*b[a-zA-Z]*\s+(?:-[a-zA-Z]+\s+){0,4}\S+\s+\S+\s+${ARG}`,
    'g',
  ),
  new RegExp(String.raw`\brabbitmqctl\s+(?:add_user|change_password)\s+\S+\s+${ARG}`, 'g'),
  new RegExp(String.raw`\bnet\s+use\b${BEFORE}/user:\S+\s+${ARG}`, 'gi'),
];

export function detectCommandLinePasswords(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  for (const pattern of COMMAND_LINES) {
    forEachMatch(text, pattern, (match) => {
      const index = match.findIndex((group, i) => i > 0 && group !== undefined);
      if (index < 0) return;
      const value = match[index]!;
      if (isPlaceholder(value) || /^[$%*]|^(?:env|file|fd|stdin):/i.test(value) || value.startsWith('/'))
        return;
      const start = match.index + match[0].lastIndexOf(value);
      findings.push({
        kind: 'secret',
        rule: 'password_on_command_line',
        start,
        end: start + value.length,
        description: 'password given on a command line',
      });
    });
  }
  return findings;
}
