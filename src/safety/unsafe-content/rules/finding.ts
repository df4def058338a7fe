/**
 * What a detector reports before it becomes a public `UnsafeFlag`: a span of UTF-16 offsets into one field's text,
 * the kind and rule, and a static description. A detector NEVER puts matched text into `description`.
 */
export interface RawFinding {
  kind: FindingKind;
  rule: string;
  /** Start (inclusive) and end (exclusive) UTF-16 offsets into the scanned text. */
  start: number;
  end: number;
  /** Static human text naming what was found (e.g. 'AWS access key ID'); never derived from the input. */
  description: string;
}

/**
 * Kinds of unsafe content:
 * - `secret`: a credential or token (API keys, passwords, JWTs, passwords in URLs, high-entropy strings).
 * - `private_key`: a private key block (PEM, OpenSSH, PGP, PuTTY).
 * - `password_hash`: a crypt/bcrypt/argon2 password hash (crackable offline, so treated as credential material).
 * - `card_number`: a Luhn-valid payment card number with a known issuer prefix.
 * - `personal_data_dump`: many distinct email addresses or phone numbers in one field (a raw customer dump).
 * - `credential_context`: a user name, host, URL, database, bucket or remote path assigned right next to a
 *   credential found in the same field (the rest of the credential set). Never reported on its own.
 */
export type FindingKind =
  'secret' | 'private_key' | 'password_hash' | 'card_number' | 'personal_data_dump' | 'credential_context';

/** A detector: pure function of the text. */
export type Detector = (text: string) => RawFinding[];

/** When spans overlap, the finding of the lower number wins (more specific rules first). */
export const KIND_PRIORITY: Record<FindingKind, number> = {
  private_key: 0,
  card_number: 1,
  password_hash: 2,
  secret: 3,
  personal_data_dump: 4,
  credential_context: 5,
};

/** Kinds that make neighbouring connection details (user, host, …) reportable as `credential_context`. */
export const CREDENTIAL_KINDS: ReadonlySet<FindingKind> = new Set(['secret', 'private_key', 'password_hash']);

/** Runs a global regex over `text`, calling `onMatch` for each match (guards against empty matches). */
export function forEachMatch(text: string, pattern: RegExp, onMatch: (match: RegExpExecArray) => void): void {
  const re = pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
  re.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = re.exec(text)) !== null) {
    if (match[0].length === 0) re.lastIndex++;
    onMatch(match);
  }
}
