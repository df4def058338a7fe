import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';

/**
 * Whether an armor block's body is what its label says (issue 29: `-----BEGIN CERTIFICATE-----` around an AWS key
 * pair, `PUBLIC KEY` around a private key). The scanner treats a body as opaque (masks it from the other detectors)
 * only when it is valid for its label; a body that parses as a private key is flagged under any label.
 */

/** Bodies longer than this are not parsed (the detectors still scan them: not opaque). */
const MAX_BODY_CHARS = 64 * 1024;

/** The DER bytes of a base64 body, or null when it is not base64. */
export function derOf(base64Body: string): Buffer | null {
  if (base64Body.length === 0 || base64Body.length > MAX_BODY_CHARS) return null;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64Body)) return null;
  return Buffer.from(base64Body, 'base64');
}

function parses(attempt: () => unknown): boolean {
  try {
    attempt();
    return true;
  } catch {
    return false;
  }
}

/** The body (DER) parses as a private key in a format PEM armor carries: PKCS#8, PKCS#1 RSA or SEC1 EC. */
export function isPrivateKeyDer(der: Buffer): boolean {
  if (der[0] !== 0x30) return false;
  return (['pkcs8', 'pkcs1', 'sec1'] as const).some((type) =>
    parses(() => createPrivateKey({ key: der, format: 'der', type })),
  );
}

/**
 * The body is valid for its label: a certificate for `CERTIFICATE` (and `TRUSTED CERTIFICATE`), a public key for
 * `PUBLIC KEY` / `RSA PUBLIC KEY`, DER of any kind for other DER labels (requests, CRLs, parameters), and for PGP
 * armor (not DER) binary data rather than text. Private key labels are the private key rule's.
 */
export function bodyMatchesLabel(label: string, der: Buffer): boolean {
  if (isPrivateKeyDer(der)) return false;
  if (/CERTIFICATE$/.test(label) && !/REQUEST$/.test(label)) {
    return parses(() => new X509Certificate(der));
  }
  if (label === 'PUBLIC KEY') return parses(() => createPublicKey({ key: der, format: 'der', type: 'spki' }));
  if (label === 'RSA PUBLIC KEY')
    return parses(() => createPublicKey({ key: der, format: 'der', type: 'pkcs1' }));
  if (label.startsWith('PGP ')) return !isMostlyText(der);
  return der[0] === 0x30 && !isMostlyText(der);
}

/** Bytes that read as UTF-8 text (an encoded `.env` file is not an opaque binary body). */
function isMostlyText(bytes: Buffer): boolean {
  let printable = 0;
  for (const byte of bytes) if ((byte >= 0x20 && byte < 0x7f) || byte === 0x0a || byte === 0x09) printable++;
  return printable >= bytes.length * 0.9;
}
