import { forEachMatch, type RawFinding } from './finding';
import { credentialLike } from './prose-credential.rule';

/**
 * Credentials stated in prose in other languages and in short forms (issue 29): "das Passwort für den Drucker
 * lautet …", "le mot de passe est « … »", "la contraseña es …", "la password è …", "a senha do portal é …", "het
 * wachtwoord is nu …", "hasło do panelu to …", "Пароль от роутера: …", "パスワードは「…」", "pw for the vpn: …",
 * "creds: user / pass", "login is admin, pass is …". The value must look like a credential, as in the English rule
 * (`credentialLike`): a digit or symbol among letters, 6+ digits, or quoted and not a sentence.
 *
 * Linear: each pattern starts at a fixed word; the words between subject and verb are at most 6, of bounded
 * length, separated by whitespace (disjoint classes, so each is matched one way); values are bounded.
 */
const SUBJECT = String.raw`(?<![\p{L}\p{N}])(?:passwort|kennwort|mot\s{1,3}de\s{1,3}passe|contrase[ñn]a|clave|senha|palavra-passe|wachtwoord|has[łl]o|пароль|password|pw|pwd)`;
/** 1 to 6 words between the subject and a colon; 0 to 6 before a verb. Whitespace runs are bounded. */
const WORD = String.raw`\s{1,4}[\p{L}\p{N}_.@/-]{1,40}`;
const VERB = String.raw`\s{1,4}(?:lautet|ist|war|est|était|es|era|è|é|is|was|to|jest|это)(?:\s{1,4}(?:nu|now|jetzt|maintenant|ahora|adesso|agora))?(?:\s{0,4}:)?\s{0,4}`;
const VALUE = String.raw`(?:«\s?([^»\n]{4,128}?)\s?»|「([^」\n]{4,128})」|"([^"\n]{4,128})"|'([^'\n]{4,128})'|\x60([^\x60\n]{4,128})\x60|([^\s"'«」\x60]{4,128}))`;
/** Japanese and Chinese: the subject, は/是 or a colon, then a 「quoted」 or ASCII value. */
const CJK = String.raw`(?:パスワード|密码|密碼)(?:は|是|\s{0,4}[:：])\s{0,4}`;
/** VALUE's six groups (quoted forms, then the bare form last). */
const VALUE_GROUPS = 6;

// A bare `password: …` is the assignment rule's; here a colon needs words before it ("pw for the vpn: …").
const STATED = new RegExp(
  `${SUBJECT}(?:(?:${WORD}){1,6}?\\s{0,4}[:：]\\s{0,4}|(?:${WORD}){0,6}?${VERB})${VALUE}`,
  'giu',
);
const STATED_CJK = new RegExp(`${CJK}(?:「([^」\\n]{4,128})」|([\\x21-\\x7e]{4,128}))`, 'gu');
/** `creds: svc_backup / Pndbdge37$` (also `credentials`, `login`). */
const USER_SLASH_PASS = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:creds|credentials|login)\s{0,4}:\s{0,4}[\p{L}\p{N}_.@-]{1,64}\s{0,4}/\s{0,4}${VALUE}`,
  'giu',
);
/** `login is admin, pass is vcso7416ev` (also `user`, `username`; `pass`, `password`, `pw`). */
const LOGIN_PASS = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:login|user(?:name)?)\s{1,4}is\s{1,4}[\p{L}\p{N}_.@-]{1,64},?\s{1,4}(?:and\s{1,4})?(?:pass(?:word)?|pw)\s{1,4}is\s{1,4}${VALUE}`,
  'giu',
);

/** The value groups are the last `groups` of each match, the bare (unquoted) form last. */
/** Sign in as `root` with `J#OMsD8QNj~B` (inline code, no word "password"). */
const SIGN_IN_AS = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:sign|log)[\s-]?in\s{1,4}as\s{1,4}\x60[^\x60\n]{1,64}\x60\s{1,4}with\s{1,4}\x60([^\x60\n]{4,128})\x60`,
  'giu',
);
/** A Wi-Fi QR payload's pre-shared key: `WIFI:T:WPA;S:Warehouse-5G;P:umop741FWY!;;`. */
const WIFI_QR = /\bWIFI:(?:[TSHE]:[^;\n]{0,64};){0,4}P:([^;\n]{4,64});/g;

function pushMatches(text: string, pattern: RegExp, findings: RawFinding[], groups = VALUE_GROUPS): void {
  forEachMatch(text, pattern, (match) => {
    const first = match.length - groups;
    const offset = match.slice(first).findIndex((group) => group !== undefined);
    if (offset < 0) return;
    const quoted = offset < groups - 1;
    const raw = match[first + offset]!;
    const value = quoted ? raw : raw.replace(/[.,;:!?)]+$/, '');
    if (!credentialLike(value, quoted)) return;
    const start = match.index + match[0].lastIndexOf(raw);
    findings.push({
      kind: 'secret',
      rule: 'credential_in_prose',
      start,
      end: start + value.length,
      description: 'credential stated in prose (password or login details)',
    });
  });
}

export function detectIntlProseCredentials(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  pushMatches(text, STATED, findings);
  pushMatches(text, STATED_CJK, findings, 2);
  pushMatches(text, USER_SLASH_PASS, findings);
  pushMatches(text, LOGIN_PASS, findings);
  pushMatches(text, SIGN_IN_AS, findings, 1);
  pushMatches(text, WIFI_QR, findings, 1);
  return findings;
}
