import { Injectable } from '@nestjs/common';
import { detectCredentialContext } from './rules/credential-context.rule';
import { CREDENTIAL_KINDS, KIND_PRIORITY, type RawFinding } from './rules/finding';
import { detectPrivateKeys, keyMaterialMasks } from './rules/private-key.rule';
import { TEXT_DETECTORS } from './rules/text-detectors';
import { detectWithSecretlint } from './secretlint-runner';
import { detectEvasions } from './scan-evasions';
import { characterCount, TextPositions } from './text-positions';

export interface UnsafeFlag {
  /**
   * What was found: 'secret' | 'private_key' | 'password_hash' | 'card_number' | 'personal_data_dump' |
   * 'credential_context' (see `FindingKind` in ./rules/finding.ts for what each means; `credential_context` is
   * only ever reported together with a credential in the same field).
   */
  kind: string;
  /** The rule that matched, e.g. 'aws_access_key_id', 'github_token', 'jwt', 'password_in_url', 'luhn_card_number', 'email_address_dump', 'phone_number_dump', or a secretlint rule id. */
  rule: string;
  /** The input field it was found in (a key of the scanned record, e.g. 'content', 'title'). */
  field: string;
  /** 1-based line and column of the finding's start within that field, and its length in characters. */
  line: number;
  column: number;
  length: number;
  /** Human text naming the kind; it NEVER contains the secret or any part of it. */
  message: string;
}

/** Generic rules lose ties against named ones when spans overlap. */
const GENERIC_RANK: Record<string, number> = {
  password_assignment: 1,
  secret_assignment: 1,
  pgpass_entry: 1,
  password_in_login_call: 1,
  high_entropy_string: 2,
};

const KIND_LABEL: Record<string, string> = {
  secret: 'secret',
  private_key: 'private key',
  password_hash: 'password hash',
  card_number: 'payment card number',
  personal_data_dump: 'bulk personal data',
  credential_context: 'credential context',
};

/**
 * Detects unsafe content (secrets, private keys, password hashes, card numbers, bulk personal data) in the text
 * fields of a record, so the caller can refuse to store it. Findings name kind, rule and location, never the value.
 */
@Injectable()
export class UnsafeContentScanner {
  async scan(fields: Record<string, string>): Promise<UnsafeFlag[]> {
    const names = Object.keys(fields).sort();
    const perField = await Promise.all(
      names.map((field) => {
        const text = fields[field];
        return typeof text === 'string' && text.length > 0
          ? this.scanField(field, text)
          : Promise.resolve([]);
      }),
    );
    return perField.flat();
  }

  private async scanField(field: string, original: string): Promise<UnsafeFlag[]> {
    const positions = new TextPositions(original);
    // Detectors see `\n` line ends only: CRLF becomes ` \n` and a lone CR `\n` (same length, so offsets hold).
    const text = original.replace(/\r\n?/g, (crlf) => (crlf.length === 2 ? ' \n' : '\n'));
    const raw = [...(await detectAll(text)), ...(await detectEvasions(text, detectAll))];
    const credentialLines: number[] = [];
    for (const finding of raw) {
      if (!CREDENTIAL_KINDS.has(finding.kind)) continue;
      const first = positions.lineIndexOf(finding.start);
      const last = positions.lineIndexOf(finding.end - 1);
      for (let line = first; line <= last; line++) credentialLines.push(line);
    }
    raw.push(...detectCredentialContext(text, (offset) => positions.lineIndexOf(offset), credentialLines));
    return deduplicate(raw)
      .map((finding) => toFlag(field, original, finding, positions))
      .sort((a, b) => a.line - b.line || a.column - b.column);
  }
}

/** Every detector on one text: private keys first (their key material masks the other rules' findings). */
async function detectAll(text: string): Promise<RawFinding[]> {
  const privateKeys = detectPrivateKeys(text);
  const masks = keyMaterialMasks(text, privateKeys);
  const masked = (finding: RawFinding): boolean =>
    finding.kind !== 'private_key' && masks.some((m) => finding.start >= m.start && finding.start < m.end);
  return [
    ...privateKeys,
    ...(await detectWithSecretlint(text)),
    ...TEXT_DETECTORS.flatMap((detect) => detect(text)),
  ].filter((finding) => finding.end > finding.start && !masked(finding));
}

/** Keeps one finding per overlapping span: the most specific kind, then a named rule over a generic one. */
function deduplicate(findings: RawFinding[]): RawFinding[] {
  const ordered = [...findings].sort(
    (a, b) =>
      KIND_PRIORITY[a.kind] - KIND_PRIORITY[b.kind] ||
      (GENERIC_RANK[a.rule] ?? 0) - (GENERIC_RANK[b.rule] ?? 0) ||
      a.start - b.start ||
      b.end - a.end,
  );
  const kept: RawFinding[] = [];
  for (const finding of ordered) {
    if (!kept.some((other) => finding.start < other.end && other.start < finding.end)) kept.push(finding);
  }
  return kept;
}

function toFlag(field: string, text: string, finding: RawFinding, positions: TextPositions): UnsafeFlag {
  const { line, column } = positions.position(finding.start);
  const label = KIND_LABEL[finding.kind] ?? finding.kind;
  let message = `Unsafe content (${label}): ${finding.description}. The value is withheld.`;
  // Defence in depth: a description must never echo the matched text.
  const matched = text.slice(finding.start, finding.end);
  if (matched.trim().length >= 4 && message.includes(matched.trim())) message = `Unsafe content (${label}).`;
  return {
    kind: finding.kind,
    rule: finding.rule,
    field,
    line,
    column,
    length: characterCount(text.slice(finding.start, finding.end)),
    message,
  };
}
