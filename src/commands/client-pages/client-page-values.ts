import { ConflictError, ValidationFailedError } from '../../common/errors';
import { unsafeLinkReason } from '../replies/source-links';

/** A client page slug: 3–64 characters of a-z, 0-9 and single inner hyphens. */
export const CLIENT_PAGE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const CLIENT_PAGE_SLUG_MIN = 3;
export const CLIENT_PAGE_SLUG_MAX = 64;
/** Upper bounds of the two summaries, in characters (Unicode code points), after whitespace is folded. */
export const ORGANIZATION_SUMMARY_MAX = 600;
export const ASSISTANT_USE_SUMMARY_MAX = 600;

export function isClientPageSlug(value: string): boolean {
  return (
    value.length >= CLIENT_PAGE_SLUG_MIN &&
    value.length <= CLIENT_PAGE_SLUG_MAX &&
    CLIENT_PAGE_SLUG.test(value)
  );
}

/** The slug exactly as given (no trimming or lower-casing: a slug is an identifier), or 422. */
export function clientPageSlug(value: string, field = 'slug'): string {
  if (!isClientPageSlug(value)) {
    throw new ValidationFailedError(
      `${field} must be ${CLIENT_PAGE_SLUG_MIN} to ${CLIENT_PAGE_SLUG_MAX} characters of a-z, 0-9 and single hyphens`,
      [
        {
          field,
          message: `must match ^[a-z0-9]+(-[a-z0-9]+)*$ and be ${CLIENT_PAGE_SLUG_MIN}–${CLIENT_PAGE_SLUG_MAX} characters`,
        },
      ],
    );
  }
  return value;
}

/**
 * A summary: every run of whitespace (line breaks and tabs included) folds to one space, the ends are trimmed;
 * it must then be 1 to `max` characters without control characters. Anything else is 422 naming the field.
 */
export function summaryText(value: string, field: string, max: number): string {
  const folded = value.replace(/\s+/gu, ' ').trim();
  const length = [...folded].length;
  if (length === 0 || length > max || /[\p{Cc}\u2028\u2029]/u.test(folded)) {
    throw new ValidationFailedError(`${field} must be 1 to ${max} characters without control characters`, [
      { field, message: `must be 1 to ${max} printable characters` },
    ]);
  }
  return folded;
}

/**
 * The organization's website as the page will link it: a public http(s) URL (the rules of reply source links:
 * no loopback, private, link-local, metadata or internal names, no credentials). Otherwise 409
 * `organization_website_required`: the page would have nothing public to link to.
 */
export function publicWebsite(websiteUrl: string | null): string {
  const reason = websiteUrl === null ? 'missing' : unsafeLinkReason(websiteUrl);
  if (websiteUrl === null || reason !== null) {
    throw new ConflictError(
      'organization_website_required',
      'publishing a client page requires the organization to have a public http(s) website_url',
      [
        {
          field: 'website_url',
          message: `the organization website is not a public http(s) URL (${reason})`,
          reason,
        },
      ],
    );
  }
  return websiteUrl;
}
