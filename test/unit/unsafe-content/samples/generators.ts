/*
 * Fake secrets for the scanner tests, assembled at run time (prefix + deterministic pseudo-random characters,
 * Luhn-completed card numbers) so the repository holds no literal credential that other scanners or push
 * protection would flag.
 */

export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const DIGITS = '0123456789';
export const ALNUM = UPPER + LOWER + DIGITS;
export const BASE64 = `${ALNUM}+/`;
export const BASE64URL = `${ALNUM}-_`;
export const BASE32 = `${UPPER}234567`;

/** Deterministic pseudo-random string (mulberry32). */
export function rand(seed: number, length: number, alphabet = ALNUM): string {
  let state = seed >>> 0;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    out += alphabet[Math.floor(r * alphabet.length)];
  }
  return out;
}

/** Appends the Luhn check digit (independent of the scanner's implementation). */
export function withLuhn(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

export const group = (digits: string, sizes: number[], sep: string): string => {
  const parts: string[] = [];
  let at = 0;
  for (const size of sizes) {
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(sep);
};

export const b64url = (value: string): string => Buffer.from(value).toString('base64url');

export const pem = (label: string, seed: number): string =>
  [
    `-----BEGIN ${label}-----`,
    ...Array.from({ length: 6 }, (_, i) => rand(seed + i, 64, BASE64)),
    `${rand(seed + 9, 20, BASE64)}==`,
    `-----END ${label}-----`,
  ].join('\n');
