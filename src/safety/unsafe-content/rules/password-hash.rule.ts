import { forEachMatch, type RawFinding } from './finding';

/**
 * Password hashes in crypt formats (shadow files, htpasswd, database dumps): bcrypt `$2a$/$2b$/$2y$`, md5-crypt
 * `$1$`, Apache `$apr1$`, sha256/sha512-crypt `$5$/$6$`, yescrypt `$y$`, argon2 and LDAP `{SSHA}`-style values.
 * They are crackable offline, so they count as credential material (`password_hash`).
 */
const HASH_PATTERNS: { rule: string; pattern: RegExp; description: string }[] = [
  {
    rule: 'bcrypt_hash',
    pattern: /\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}/g,
    description: 'bcrypt password hash',
  },
  {
    rule: 'crypt_hash',
    pattern: /\$(?:1|5|6|apr1)\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86}/g,
    description: 'crypt(3) password hash',
  },
  {
    rule: 'yescrypt_hash',
    pattern: /\$y\$[./A-Za-z0-9]+\$[./A-Za-z0-9]{8,}\$[./A-Za-z0-9]{43}/g,
    description: 'yescrypt password hash',
  },
  {
    rule: 'argon2_hash',
    pattern: /\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{11,}\$[A-Za-z0-9+/]{16,}/g,
    description: 'argon2 password hash',
  },
  {
    rule: 'ldap_password_hash',
    pattern: /\{(?:SSHA|SSHA256|SSHA512|SHA|SMD5|CRYPT|PBKDF2[-_A-Z0-9]*)\}[A-Za-z0-9+/=.$]{16,}/g,
    description: 'LDAP password hash',
  },
];

export function detectPasswordHashes(text: string): RawFinding[] {
  if (!text.includes('$') && !text.includes('{')) return [];
  const findings: RawFinding[] = [];
  for (const { rule, pattern, description } of HASH_PATTERNS) {
    forEachMatch(text, pattern, (match) =>
      findings.push({
        kind: 'password_hash',
        rule,
        start: match.index,
        end: match.index + match[0].length,
        description,
      }),
    );
  }
  return findings;
}
