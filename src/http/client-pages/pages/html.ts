import escapeHtml from 'escape-html';

/** Markup that is already safe: the output of `html`, never raw input. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = string | number | SafeHtml | readonly SafeHtml[] | null | undefined | false;

/**
 * A template tag that escapes every interpolated value with escape-html (text and attribute values alike:
 * `& < > " '`), except SafeHtml produced by another `html` call. null, undefined and false render nothing.
 * Attribute values must always be quoted in the templates.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1];
  });
  return new SafeHtml(out);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map((item: SafeHtml) => item.value).join('');
  return escapeHtml(String(value));
}

/** Built once: constructing an Intl.DateTimeFormat costs far more than formatting with one. */
const LONG_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** A `YYYY-MM-DD` date as people read it: "January 15, 2026". */
export function humanDate(date: string): string {
  return LONG_DATE.format(new Date(`${date}T00:00:00Z`));
}
