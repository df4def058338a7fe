import { extractAssignments, keyWords, type Assignment } from './assignments';
import type { RawFinding } from './finding';
import {
  identifierLike,
  isDocumentedExample,
  isCodeReference,
  isPathOrUrl,
  isPlaceholder,
  isProse,
  looksRandom,
  shannonEntropy,
} from './value-heuristics';

/**
 * Generic credential assignments: `password = "…"`, `DB_PASS=…`, `"userPassword": "…"`, `secret: …`,
 * `api_key=…`, `<Pass>…</Pass>`, `define('AUTH_KEY', '…')`, `.netrc` passwords.
 *
 * How strong the value must look depends on how strong the key name is:
 * - password-like last word (`password`, `passwd`, `pwd`, `pass`, `passphrase`, `dbpasswd`): any non-placeholder
 *   literal of 4+ characters (weak passwords such as `admin123` are exactly the risky ones);
 * - secret-like last word (`secret`, `token`, `salt`, `auth`, `credentials`, `apikey`, `…_key`): a random-looking
 *   value (letters and digits, high entropy, not an identifier made of words);
 * - a secret word elsewhere in the key (`secret_key_base`, `passwordHash`): a long random-looking value.
 * Never flagged: placeholders (`********`, `${SECRET}`, `<token>`, `changeme`, `YOUR_API_KEY`), code references
 * (`process.env.X`, `getenv(…)`), paths/URLs, prose, booleans and type names.
 */
const PASSWORD_WORD =
  /^(?:[a-z]*(?:password|passwd|passphrase|passcode)|[a-z]{0,5}pwd|pass|pw|psw|[a-z]{2,5}pass)$/;
const NOT_PASSWORD = new Set(['bypass', 'compass', 'surpass', 'overpass', 'underpass', 'trespass']);
const SECRET_WORD =
  /^(?:[a-z]*(?:secret|token)s?|salt|auth|credentials?|apikey|(?:api|app|auth|access|secret|private|master|client|session|signing|encryption|license|consumer|shared|nonce)key)$/;

type Strength = 'password' | 'secret' | 'weak' | null;

export function keyStrength(key: string): Strength {
  const words = keyWords(key);
  if (words.length === 0 || words.includes('public') || words.includes('publishable')) return null;
  let last = words[words.length - 1];
  if ((last === 'id' || last === 'value') && words.length >= 2) last = words[words.length - 2];
  if (PASSWORD_WORD.test(last) && !NOT_PASSWORD.has(last)) return 'password';
  if (SECRET_WORD.test(last) || last === 'key') return 'secret';
  if (words.some((word) => SECRET_WORD.test(word) || (PASSWORD_WORD.test(word) && !NOT_PASSWORD.has(word))))
    return 'weak';
  return null;
}

function acceptable(assignment: Assignment, strength: Exclude<Strength, null>): boolean {
  const value = assignment.value.trim();
  if (isPlaceholder(value) || isPathOrUrl(value)) return false;
  if (!assignment.quoted && isCodeReference(value)) return false;
  if (/\s/.test(value) && (!assignment.quoted || isProse(value))) return false;
  switch (strength) {
    case 'password':
      if (value.length < 4) return false;
      // `password changed`, `pass through`: a two-token line whose value is a plain word is prose.
      if (assignment.form === 'spaced' && !assignment.quoted && /^[a-z]+$/.test(value)) return false;
      // `- _password_: password string according to …`: a plain word followed by more words is a sentence.
      if (!assignment.quoted && /^[a-z]+$/.test(value) && /^[ \t]+[A-Za-z]/.test(assignment.after))
        return false;
      // `Pass: failed`, `PW: pending`: the short keys are also English words; a plain word is a status, not a password.
      if (/^(?:pass|pw)$/i.test(assignment.key) && !assignment.quoted && /^[a-z]+$/.test(value)) return false;
      return true;
    case 'secret':
      if (isDocumentedExample(value)) return false;
      if (isBase64CredentialPair(value)) return true;
      // A bare `key:` (`Release GPG key: F3EF…`, `Key: 1min_35sec`) is weak evidence: fingerprints and object
      // keys are not secrets, so it needs upper and lower case letters and digits.
      if (keyWords(assignment.key).join('_') === 'key' && !/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)/s.test(value))
        return false;
      return (
        looksRandom(value, 8) && !identifierLike(value) && (value.length < 32 || shannonEntropy(value) >= 3)
      );
    case 'weak':
      if (isDocumentedExample(value)) return false;
      return looksRandom(value, 16) && !identifierLike(value) && shannonEntropy(value) >= 3.3;
  }
}

/** npm `_auth`, Docker `auth`, HTTP Basic: base64 of `user:password`. */
function isBase64CredentialPair(value: string): boolean {
  if (value.length < 8 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) return false;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  return (
    /^[\x21-\x7e]{1,100}:[\x21-\x7e]{1,200}$/.test(decoded) &&
    !isPlaceholder(decoded.slice(decoded.indexOf(':') + 1))
  );
}

export function detectSecretAssignments(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  for (const assignment of extractAssignments(text)) {
    const strength = keyStrength(assignment.key);
    if (strength === null || !acceptable(assignment, strength)) continue;
    const leading = assignment.value.length - assignment.value.trimStart().length;
    const value = assignment.value.trim();
    findings.push({
      kind: 'secret',
      rule: strength === 'password' ? 'password_assignment' : 'secret_assignment',
      start: assignment.valueStart + leading,
      end: assignment.valueStart + leading + value.length,
      description:
        strength === 'password'
          ? 'password assigned to a password-like key'
          : 'secret value assigned to a secret-like key',
    });
  }
  return findings;
}
