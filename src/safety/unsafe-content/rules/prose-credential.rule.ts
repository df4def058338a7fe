import { forEachMatch, type RawFinding } from './finding';
import { isCodeReference, isPathOrUrl, isPlaceholder, isProse } from './value-heuristics';

/**
 * Credentials stated in prose (issue 20): "the admin password is Tr0ub4dor&3", "our wifi passcode was changed to
 * 'blue-heron-77'", "the API key for staging is …", "use hunter22 as the password", "log in with password
 * 'x9…'". Assignments (`password = …`, `password: …`) are the secret-assignment rule's; this one needs a verb.
 *
 * The value must look like a credential: quoted (4+ characters, not a placeholder, not a sentence), or unquoted
 * with a digit among letters, a symbol among letters, or 6+ digits. "The password is case-sensitive", "your
 * password was reset" and "the token is required" are ordinary support text and are not flagged.
 */
const SUBJECT = String.raw`\b(?:pass\s?word|passcode|passphrase|pin(?:\s+code)?|api[\s-]key|access[\s-]token|secret[\s-]key|auth(?:entication)?[\s-]token|login|credentials?)`;
const QUALIFIER = String.raw`(?:\s+(?:for|to|on|of|at)\s+(?:the\s+|our\s+|my\s+)?[\w.@:/-]+(?:\s+(?:account|server|box|site|portal|database|router|wifi|network))?)?`;
// Longest forms first: "was changed to X" must not stop at "was" (+ the value "changed").
const VERB = String.raw`\s+(?:(?:has\s+been\s+|was\s+|got\s+|is\s+)?(?:set|changed|reset|updated)\s+to|is\s+now|will\s+be|is|was|are|reads|remains)(?:\s*:)?\s*`;
const VALUE = String.raw`(?:"([^"\n]{4,128})"|'([^'\n]{4,128})'|“([^”\n]{4,128})”|‘([^’\n]{4,128})’|\x60([^\x60\n]{4,128})\x60|([^\s"'“”‘’\x60]{4,128}))`;

const STATED = new RegExp(`${SUBJECT}${QUALIFIER}${VERB}${VALUE}`, 'giu');
const USE_AS = new RegExp(
  String.raw`\buse\s+${VALUE}\s+as\s+(?:the\s+|your\s+|my\s+|our\s+)?(?:[\w-]+\s+)?(?:pass\s?word|passcode|passphrase|pin)\b`,
  'giu',
);
const WITH_PASSWORD = new RegExp(
  String.raw`\b(?:with|and)\s+(?:the\s+)?(?:pass\s?word|passcode|pw)\s+(?:"([^"\n]{4,128})"|'([^'\n]{4,128})'|\x60([^\x60\n]{4,128})\x60)`,
  'giu',
);

export function credentialLike(value: string, quoted: boolean): boolean {
  if (isPlaceholder(value) || isPathOrUrl(value) || isCodeReference(value)) return false;
  if (quoted) return !isProse(value);
  const letters = /\p{L}/u.test(value);
  if (/\d/.test(value) && letters) return true;
  if (/[^\p{L}\p{N}\s_-]/u.test(value) && letters && value.length >= 6) return true;
  return /^\d{6,}$/.test(value);
}

function pushMatches(text: string, pattern: RegExp, findings: RawFinding[]): void {
  forEachMatch(text, pattern, (match) => {
    const index = match.findIndex((group, i) => i > 0 && group !== undefined);
    if (index < 0) return;
    // VALUE's groups 1–5 are quoted forms, group 6 the bare word; WITH_PASSWORD has quoted forms only.
    const quoted = pattern === WITH_PASSWORD || index < 6;
    // An unquoted value loses trailing sentence punctuation (`… is hunter22.`).
    const value = quoted ? match[index]! : match[index]!.replace(/[.,;:!?)]+$/, '');
    if (!credentialLike(value, quoted)) return;
    const start = match.index + match[0].lastIndexOf(match[index]!);
    findings.push({
      kind: 'secret',
      rule: 'credential_in_prose',
      start,
      end: start + value.length,
      description: 'credential stated in prose (password, passcode, API key or token)',
    });
  });
}

export function detectProseCredentials(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  pushMatches(text, STATED, findings);
  pushMatches(text, USE_AS, findings);
  pushMatches(text, WITH_PASSWORD, findings);
  return findings;
}
