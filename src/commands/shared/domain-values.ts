import { ValidationFailedError } from '../../common/errors';

/** Trims and checks a display name (1–200 characters, no control characters). */
export function displayName(value: string, field = 'name'): string {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > 200 || /\p{Cc}/u.test(trimmed)) {
    throw new ValidationFailedError(`${field} must be 1 to 200 characters without control characters`, [
      { field, message: 'must be 1 to 200 printable characters' },
    ]);
  }
  return trimmed;
}

/** A public http(s) website URL, normalized by the WHATWG parser; credentials are refused. */
export function websiteUrl(value: string, field = 'website_url'): string {
  let parsed: URL;
  try {
    parsed = new URL(value.trim());
  } catch {
    throw new ValidationFailedError(`${field} is not a valid URL`, [
      { field, message: 'must be an absolute http(s) URL' },
    ]);
  }
  if (
    !['http:', 'https:'].includes(parsed.protocol) ||
    parsed.username ||
    parsed.password ||
    value.length > 2048
  ) {
    throw new ValidationFailedError(`${field} must be an http(s) URL without credentials`, [
      { field, message: 'must be an http(s) URL without credentials, at most 2048 characters' },
    ]);
  }
  return parsed.toString();
}

/** A host name a chatbot is embedded on (e.g. `www.example.com`), lower-cased. */
export function domainName(value: string, field = 'allowed_domain'): string {
  const host = value.trim().toLowerCase();
  const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
  if (host.length > 253 || !new RegExp(`^(?:${label}\\.)+[a-z]{2,63}$`).test(host)) {
    throw new ValidationFailedError(`${field} must be a domain name such as www.example.com`, [
      { field, message: 'must be a domain name' },
    ]);
  }
  return host;
}

/** A slug: 1–64 of a-z, 0-9 and single hyphens, not starting or ending with a hyphen. */
export function slugValue(value: string, field = 'slug'): string {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value) || value.length > 64) {
    throw new ValidationFailedError(`${field} must be 1 to 64 characters of a-z, 0-9 and single hyphens`, [
      { field, message: 'must match ^[a-z0-9]+(-[a-z0-9]+)*$ and be at most 64 characters' },
    ]);
  }
  return value;
}
