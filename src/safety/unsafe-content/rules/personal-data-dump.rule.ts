import { forEachMatch, type RawFinding } from './finding';

/**
 * Bulk personal data ("raw customer dumps"): at least DUMP_THRESHOLD distinct email addresses, or as many distinct
 * phone numbers, in one field. A note naming a few contacts, or a signature with a phone number, stays below it.
 * Addresses at documentation domains reserved by RFC 2606/6761 (example.com/.org/.net, *.example, *.test,
 * *.invalid, localhost) belong to nobody and are not counted. One finding per dump, located at its first entry.
 */
export const DUMP_THRESHOLD = 10;

const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,24}\b/g;
const RESERVED_DOMAIN = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost)$/i;

/**
 * Phone numbers as people write them: `+44 20 7946 0958`, `+1-415-555-0100`, `(415) 555-0100`, `415.555.0100`,
 * `+4915112345678`. Bare digit runs without a `+` or grouping are not counted (they are ids, amounts, dates).
 */
const PHONE =
  /(?<![\w+.-])(?:\+\d{1,3}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]?\d{2,4}){1,4}|\(\d{2,4}\)[ .-]?\d{3,4}[ .-]\d{3,4}|\d{3}[.-]\d{3}[.-]\d{4})(?![\w-]|\.\d)/g;

function phoneDigits(candidate: string): string | null {
  const digits = candidate.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return null;
  // Dates and times written with dots or dashes (`2024.05.06`) are not phone numbers.
  if (/^\d{4}[.-]\d{2}[.-]\d{2}$/.test(candidate)) return null;
  return digits;
}

interface Entry {
  start: number;
  end: number;
}

function firstEntryFinding(entries: Map<string, Entry>, rule: string, what: string): RawFinding[] {
  if (entries.size < DUMP_THRESHOLD) return [];
  const first = [...entries.values()].reduce((a, b) => (b.start < a.start ? b : a));
  const description = `${entries.size} distinct ${what} (bulk personal data); located at the first one`;
  return [{ kind: 'personal_data_dump', rule, start: first.start, end: first.end, description }];
}

export function detectPersonalDataDumps(text: string): RawFinding[] {
  const emails = new Map<string, Entry>();
  if (text.includes('@')) {
    forEachMatch(text, EMAIL, (match) => {
      const domain = match[0].slice(match[0].lastIndexOf('@') + 1);
      if (RESERVED_DOMAIN.test(domain)) return;
      const key = match[0].toLowerCase();
      if (!emails.has(key)) emails.set(key, { start: match.index, end: match.index + match[0].length });
    });
  }
  const phones = new Map<string, Entry>();
  forEachMatch(text, PHONE, (match) => {
    const digits = phoneDigits(match[0]);
    if (digits !== null && !phones.has(digits))
      phones.set(digits, { start: match.index, end: match.index + match[0].length });
  });
  return [
    ...firstEntryFinding(emails, 'email_address_dump', 'email addresses'),
    ...firstEntryFinding(phones, 'phone_number_dump', 'phone numbers'),
  ];
}
