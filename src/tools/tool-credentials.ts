/**
 * Credentials and other unsafe content in tool output text ("credentials are rejected", interface §4.6 rule 10).
 * Reuses the pure, synchronous detectors of the memory UnsafeContentScanner (src/safety/unsafe-content):
 * private keys, provider tokens, JWTs, URL credentials, password hashes, card numbers, inline credentials,
 * secret assignments, high-entropy strings and bulk personal data. Any finding rejects the output: a tool result
 * is rejected whole, so the scanner's overlap de-duplication and positions are not needed.
 * Not included: the scanner's secretlint pass, which is asynchronous. A caller that can await may additionally
 * run `UnsafeContentScanner.scan(toolOutputStrings(output))` on the projected output (tool-output.ts).
 */
import { CREDENTIAL_KINDS, type RawFinding } from '../safety/unsafe-content/rules/finding';
import { detectPrivateKeys } from '../safety/unsafe-content/rules/private-key.rule';
import { TEXT_DETECTORS } from '../safety/unsafe-content/rules/text-detectors';

const DETECTORS: ReadonlyArray<(text: string) => RawFinding[]> = [detectPrivateKeys, ...TEXT_DETECTORS];

export interface ToolTextFinding {
  /** `credential` for secrets, private keys and password hashes; `sensitive_data` for card numbers and dumps. */
  reason: 'credential' | 'sensitive_data';
  /** The detector rule, e.g. `github_token`, `jwt`, `luhn_card_number`; never the matched text. */
  rule: string;
}

/** The first unsafe finding in `text`, or null. Line ends are normalized as the scanner does. */
export function findUnsafeText(text: string): ToolTextFinding | null {
  if (text.length === 0) return null;
  const normalized = text.replace(/\r\n?/g, (crlf) => (crlf.length === 2 ? ' \n' : '\n'));
  for (const detect of DETECTORS) {
    const finding = detect(normalized).find((candidate) => candidate.end > candidate.start);
    if (finding !== undefined) {
      return {
        reason: CREDENTIAL_KINDS.has(finding.kind) ? 'credential' : 'sensitive_data',
        rule: finding.rule,
      };
    }
  }
  return null;
}
