import { forEachMatch, type RawFinding } from './finding';

/** `-----BEGIN … PRIVATE KEY-----` (PKCS#1/#8, EC, DSA, OpenSSH, encrypted) and PGP private key blocks. */
const PRIVATE_BEGIN =
  /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|-----BEGIN PGP PRIVATE KEY BLOCK-----/g;
/** PuTTY key files: header line, then Public-Lines/Private-Lines blocks, then the MAC. */
const PUTTY_BEGIN = /^PuTTY-User-Key-File-\d+:[^\n]*$/gm;
const PUTTY_END = /^Private-(?:MAC|Hash):[^\n]*$/m;
/** Any PEM/PGP armor block (certificates, public keys, signatures, private keys). */
const ANY_ARMOR = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?(?:-----END \1-----|$(?![\s\S]))/g;
/** OpenSSH public keys (`ssh-ed25519 AAAA…`): public, not secret; masked so the entropy rule skips them. */
const SSH_PUBLIC_KEY =
  /\b(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) AAAA[0-9A-Za-z+/]+=*/g;

export interface Span {
  start: number;
  end: number;
}

/**
 * Private key blocks. A truncated block (BEGIN without END) is still flagged: the part shown already leaks key
 * material. The span covers the whole block; the flag's location is its BEGIN line.
 */
export function detectPrivateKeys(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  forEachMatch(text, PRIVATE_BEGIN, (match) => {
    const label = match[0].slice('-----BEGIN '.length, -'-----'.length);
    const endMarker = `-----END ${label}-----`;
    const endAt = text.indexOf(endMarker, match.index);
    const end = endAt >= 0 ? endAt + endMarker.length : match.index + match[0].length;
    const pgp = label.startsWith('PGP');
    findings.push({
      kind: 'private_key',
      rule: pgp ? 'pgp_private_key' : 'pem_private_key',
      start: match.index,
      end,
      description: pgp ? 'PGP private key block' : 'PEM/OpenSSH private key block',
    });
  });
  forEachMatch(text, PUTTY_BEGIN, (match) => {
    const rest = text.slice(match.index);
    if (!/^Private-Lines:/m.test(rest)) return;
    const tail = PUTTY_END.exec(rest);
    const end = tail ? match.index + tail.index + tail[0].length : match.index + match[0].length;
    findings.push({
      kind: 'private_key',
      rule: 'putty_private_key',
      start: match.index,
      end,
      description: 'PuTTY private key file',
    });
  });
  return findings;
}

/**
 * Spans inside which other detectors' findings are dropped: every armor block (a certificate or public key is not
 * secret; a private key block is already one finding), PuTTY key files and OpenSSH public keys.
 */
export function keyMaterialMasks(text: string): Span[] {
  if (!text.includes('-----BEGIN') && !text.includes('PuTTY-User-Key-File') && !text.includes('AAAA')) return [];
  const spans: Span[] = [];
  forEachMatch(text, ANY_ARMOR, (match) => spans.push({ start: match.index, end: match.index + match[0].length }));
  forEachMatch(text, SSH_PUBLIC_KEY, (match) =>
    spans.push({ start: match.index, end: match.index + match[0].length }),
  );
  for (const finding of detectPrivateKeys(text)) spans.push({ start: finding.start, end: finding.end });
  return spans;
}
