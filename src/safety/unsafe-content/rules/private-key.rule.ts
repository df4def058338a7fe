import { bodyMatchesLabel, derOf, isPrivateKeyDer } from './armor-body';
import { forEachMatch, type RawFinding } from './finding';

/**
 * `-----BEGIN … PRIVATE KEY-----` (PKCS#1/#8, EC, DSA, OpenSSH, encrypted) and PGP private key blocks, also under
 * made-up labels around those words (`RSA PRIVATE KEY FILE`, two spaces in `RSA  PRIVATE KEY`; issue 29).
 */
const PRIVATE_BEGIN =
  /-----BEGIN (?:[A-Z0-9]{1,20} {1,3}){0,3}PRIVATE {1,3}KEY(?: {1,3}[A-Z0-9]{1,20}){0,3}-----/g;
/** Armor blocks checked for a private key body under another label (bounded work per field). */
const MAX_ARMOR_BODIES = 32;
/** PuTTY key files: header line, Public-Lines and Private-Lines blocks, then the MAC line. */
const PUTTY_BEGIN = /^PuTTY-User-Key-File-\d+:[^\n]*$/gm;
const PUTTY_END = /^Private-(?:MAC|Hash):[^\n]*$/gm;
/** Any PEM/PGP armor header (certificates, public keys, signatures, private keys); the block runs to its END. */
const ARMOR_BEGIN = /-----BEGIN ([A-Z0-9 ]{1,60})-----/g;
/** OpenSSH public keys (`ssh-ed25519 AAAA…`): public, not secret; masked so the entropy rule skips them. */
const SSH_PUBLIC_KEY =
  /\b(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) AAAA[0-9A-Za-z+/]+=*/g;

export interface Span {
  start: number;
  end: number;
}

/**
 * Finds the end of the next `marker` at or after `from`, remembering the last answer per marker so that many
 * headers without an END cost one search, not one each.
 */
class EndFinder {
  private readonly next = new Map<string, number>();

  constructor(private readonly text: string) {}

  /** Offset just past the marker, or -1 when there is none after `from`. */
  endOf(marker: string, from: number): number {
    const cached = this.next.get(marker);
    if (cached !== undefined && (cached === -1 || cached >= from))
      return cached < 0 ? -1 : cached + marker.length;
    const at = this.text.indexOf(marker, from);
    this.next.set(marker, at);
    return at < 0 ? -1 : at + marker.length;
  }

  /** The same for a line matching `pattern` (global, multiline). */
  endOfLine(pattern: RegExp, from: number): number {
    const key = pattern.source;
    const cached = this.next.get(key);
    if (cached !== undefined && (cached === -1 || cached >= from)) return cached;
    pattern.lastIndex = from;
    const match = pattern.exec(this.text);
    const end = match ? match.index + match[0].length : -1;
    this.next.set(key, end);
    return end;
  }
}

/**
 * Private key blocks. A truncated block (BEGIN without END) is still flagged: the part shown already leaks key
 * material. The span covers the whole block; the flag's location is its BEGIN line.
 */
export function detectPrivateKeys(text: string): RawFinding[] {
  if (!text.includes('-----BEGIN') && !text.includes('PuTTY-User-Key-File')) return [];
  const ends = new EndFinder(text);
  const findings: RawFinding[] = [...privateBodiesUnderOtherLabels(text)];
  forEachMatch(text, PRIVATE_BEGIN, (match) => {
    const label = match[0].slice('-----BEGIN '.length, -'-----'.length);
    const end = ends.endOf(`-----END ${label}-----`, match.index);
    const pgp = label.startsWith('PGP');
    findings.push({
      kind: 'private_key',
      rule: pgp ? 'pgp_private_key' : 'pem_private_key',
      start: match.index,
      end: end >= 0 ? end : match.index + match[0].length,
      description: pgp ? 'PGP private key block' : 'PEM/OpenSSH private key block',
    });
  });
  forEachMatch(text, PUTTY_BEGIN, (match) => {
    const privateLines = ends.endOf('\nPrivate-Lines:', match.index);
    if (privateLines < 0) return;
    const end = ends.endOfLine(PUTTY_END, match.index);
    findings.push({
      kind: 'private_key',
      rule: 'putty_private_key',
      start: match.index,
      end: end >= 0 ? end : match.index + match[0].length,
      description: 'PuTTY private key file',
    });
  });
  return findings;
}

/**
 * Armor blocks whose label does not say private key but whose body parses as one (`PUBLIC KEY` around a SEC1 EC
 * private key): flagged over the whole block.
 */
function privateBodiesUnderOtherLabels(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  let checked = 0;
  forEachMatch(text, ARMOR_BEGIN, (match) => {
    if (/PRIVATE {1,3}KEY/.test(match[1]!) || checked >= MAX_ARMOR_BODIES) return;
    checked++;
    const body = armorBody(text, match.index, `-----END ${match[1]}-----`);
    const der = derOf(body.base64);
    if (der === null || !isPrivateKeyDer(der)) return;
    const last = body.spans[body.spans.length - 1];
    findings.push({
      kind: 'private_key',
      rule: 'pem_private_key',
      start: match.index,
      end: last ? last.end : match.index + match[0].length,
      description: 'private key under a misleading armor label',
    });
  });
  return findings;
}

/**
 * The base64 body lines of an armor block starting after `from` (armor headers such as `Proc-Type:` are skipped
 * but not masked; the block ends at its END line or at the first line that is neither). Only body lines are
 * masked, so a stray or crafted `-----BEGIN CERTIFICATE-----` cannot hide other content from the scan.
 */
function armorBody(text: string, from: number, endMarker: string): { spans: Span[]; base64: string } {
  const spans: Span[] = [];
  let base64 = '';
  let at = text.indexOf('\n', from) + 1;
  while (at > 0 && at < text.length) {
    const lineEnd = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at);
    const line = text.slice(at, lineEnd).trim();
    if (line.startsWith(endMarker)) {
      spans.push({ start: at, end: lineEnd });
      break;
    }
    if (/^[A-Za-z0-9+/=]{0,120}$/.test(line)) {
      spans.push({ start: at, end: lineEnd });
      base64 += line;
    } else if (!/^[A-Za-z-]{2,30}: /.test(line)) break;
    at = lineEnd + 1;
  }
  return { spans, base64 };
}

/**
 * Spans inside which other detectors' findings are dropped: private key findings (already one finding each), the
 * base64 bodies of other armor blocks when valid for their label (a certificate or public key is not secret; a
 * `CERTIFICATE` whose body is not one is scanned like any text) and OpenSSH public keys.
 */
export function keyMaterialMasks(text: string, privateKeys: RawFinding[]): Span[] {
  const spans: Span[] = privateKeys.map(({ start, end }) => ({ start, end }));
  if (text.includes('-----BEGIN')) {
    // One body walk per line: many headers on one line would otherwise each walk the same body (quadratic).
    const walked = new Set<number>();
    // Bodies are parsed for at most MAX_ARMOR_BODIES blocks; the rest are scanned like any text (not opaque).
    let parsed = 0;
    forEachMatch(text, ARMOR_BEGIN, (match) => {
      spans.push({ start: match.index, end: match.index + match[0].length });
      const bodyLine = text.indexOf('\n', match.index);
      if (walked.has(bodyLine)) return;
      walked.add(bodyLine);
      const body = armorBody(text, match.index, `-----END ${match[1]}-----`);
      if (parsed >= MAX_ARMOR_BODIES) return;
      parsed++;
      const der = derOf(body.base64);
      if (der !== null && bodyMatchesLabel(match[1]!, der)) spans.push(...body.spans);
    });
  }
  if (text.includes('AAAA')) {
    forEachMatch(text, SSH_PUBLIC_KEY, (match) =>
      spans.push({ start: match.index, end: match.index + match[0].length }),
    );
  }
  return spans;
}
