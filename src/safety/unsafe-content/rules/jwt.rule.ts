import { forEachMatch, type RawFinding } from './finding';

/** Three base64url parts; the header must decode to a JSON object with an `alg` member. */
const JWT_CANDIDATE = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

function decodeBase64Url(part: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(part) || part.length % 4 === 1) return null;
  return Buffer.from(part.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
}

export function isJwtHeader(part: string): boolean {
  const decoded = decodeBase64Url(part);
  if (decoded === null) return false;
  try {
    const header: unknown = JSON.parse(decoded);
    return (
      typeof header === 'object' && header !== null && typeof (header as { alg?: unknown }).alg === 'string'
    );
  } catch {
    return false;
  }
}

export function detectJwts(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  forEachMatch(text, JWT_CANDIDATE, (match) => {
    const [header] = match[0].split('.');
    if (!isJwtHeader(header)) return;
    findings.push({
      kind: 'secret',
      rule: 'jwt',
      start: match.index,
      end: match.index + match[0].length,
      description: 'JSON Web Token',
    });
  });
  return findings;
}
