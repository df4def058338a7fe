import { forEachMatch, type RawFinding } from './finding';

/**
 * Payment card numbers: 13–19 digits, optionally grouped by single spaces or dashes (one separator style), with a
 * valid Luhn check digit AND a known issuer prefix/length (IIN ranges of Visa, Mastercard, Amex, Discover, Diners,
 * JCB, UnionPay, Maestro). Random digit runs pass Luhn one time in ten; the issuer check removes most of the rest.
 *
 * Decision on test cards: the published test numbers of card networks and payment processors (Stripe's
 * 4242 4242 4242 4242, Visa's 4111 1111 1111 1111, …) are not flagged. They are public documentation, belong
 * to no card holder, and a note about integration testing may legitimately contain them.
 */
const CANDIDATE = /(?<![\d\-.,/])(?:\d[ -]?){12,30}\d(?![\d\-/]|[.,]\d)/g;

const PUBLIC_TEST_NUMBERS = new Set([
  '4242424242424242',
  '4000056655665556',
  '4111111111111111',
  '4012888888881881',
  '4222222222222',
  '5555555555554444',
  '5105105105105100',
  '5200828282828210',
  '2223003122003222',
  '378282246310005',
  '371449635398431',
  '378734493671000',
  '6011111111111117',
  '6011000990139424',
  '30569309025904',
  '38520000023237',
  '3566002020360505',
  '3530111333300000',
  '6200000000000005',
]);

interface Issuer {
  name: string;
  prefix: RegExp;
  lengths: number[];
}

const ISSUERS: Issuer[] = [
  { name: 'Visa', prefix: /^4/, lengths: [13, 16, 19] },
  { name: 'Mastercard', prefix: /^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/, lengths: [16] },
  { name: 'American Express', prefix: /^3[47]/, lengths: [15] },
  { name: 'Discover', prefix: /^(6011|64[4-9]|65)/, lengths: [16, 17, 18, 19] },
  { name: 'Diners Club', prefix: /^(30[0-5]|309|36|3[89])/, lengths: [14, 15, 16, 17, 18, 19] },
  { name: 'JCB', prefix: /^35(2[89]|[3-8]\d)/, lengths: [16, 17, 18, 19] },
  { name: 'UnionPay', prefix: /^62/, lengths: [16, 17, 18, 19] },
  {
    name: 'Maestro',
    prefix: /^(5018|5020|5038|5893|6304|6759|676[1-3])/,
    lengths: [13, 14, 15, 16, 17, 18, 19],
  },
];

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Separators must be one style and groups of 3–6 digits (`4111 1111 1111 1111`, `3782-822463-10005`). */
function wellGrouped(candidate: string): boolean {
  const separators = candidate.replace(/\d/g, '');
  if (separators.length === 0) return true;
  if (new Set(separators).size > 1) return false;
  const groups = candidate.split(/[ -]/);
  return groups.length >= 3 && groups.every((group) => group.length >= 3 && group.length <= 6);
}

export function issuerOf(digits: string): string | null {
  if (/^(\d)\1+$/.test(digits)) return null;
  const issuer = ISSUERS.find(
    (candidate) => candidate.prefix.test(digits) && candidate.lengths.includes(digits.length),
  );
  return issuer ? issuer.name : null;
}

function isCard(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '');
  if (digits.length < 13 || digits.length > 19) return false;
  if (!wellGrouped(candidate) || !luhnValid(digits) || PUBLIC_TEST_NUMBERS.has(digits)) return false;
  return issuerOf(digits) !== null;
}

/**
 * The first card inside a run of digit groups: the whole run, else the longest window of whole groups that is a
 * card (`4111 1111 1111 1111 2025` = card + expiry year).
 */
function cardWithin(run: string): { offset: number; length: number } | null {
  if (isCard(run)) return { offset: 0, length: run.length };
  const groups: { offset: number; text: string }[] = [];
  forEachMatch(run, /\d+/g, (match) => groups.push({ offset: match.index, text: match[0] }));
  for (let first = 0; first < groups.length; first++) {
    let digits = 0;
    for (let last = first; last < groups.length; last++) {
      // Groups of a card have 3–6 digits; windows grow until they pass 19 digits.
      if (groups[last].text.length < 3 || groups[last].text.length > 6) break;
      digits += groups[last].text.length;
      if (digits > 19) break;
      if (digits < 13 || (first === 0 && last === groups.length - 1)) continue;
      const offset = groups[first].offset;
      const length = groups[last].offset + groups[last].text.length - offset;
      if (isCard(run.slice(offset, offset + length))) return { offset, length };
    }
  }
  return null;
}

export function detectCardNumbers(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  forEachMatch(text, CANDIDATE, (match) => {
    const card = cardWithin(match[0]);
    if (!card) return;
    findings.push({
      kind: 'card_number',
      rule: 'luhn_card_number',
      start: match.index + card.offset,
      end: match.index + card.offset + card.length,
      description: 'payment card number (Luhn-valid, known issuer prefix)',
    });
  });
  return findings;
}

/**
 * Card numbers written to slip past the grouping check (issue 20): any separators between the digits
 * (`4 5 3 2 …`, `4532.0151.1283.0366`, `4532 / 0151 / …`, `45-32-01-…`), up to three characters each, no letters.
 * The digits must still be a Luhn-valid number of a known issuer, and the groups must be either all short (1–2
 * digits: a digit-by-digit spread) or 3–6 digits (a grouping with unusual separators).
 */
const SPREAD = /(?<![\p{L}\p{N}])\d(?:[^\p{L}\p{N}\n]{0,3}\d){12,18}(?![\p{L}\p{N}])/gu;

function spreadCard(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '');
  if (digits.length < 13 || digits.length > 19) return false;
  if (!luhnValid(digits) || PUBLIC_TEST_NUMBERS.has(digits) || issuerOf(digits) === null) return false;
  const groups = candidate.split(/\D+/);
  return (
    groups.every((group) => group.length <= 2) ||
    (groups.length >= 3 && groups.every((group) => group.length >= 3 && group.length <= 6))
  );
}

export function detectSpreadCardNumbers(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  forEachMatch(text, SPREAD, (match) => {
    if (!spreadCard(match[0])) return;
    findings.push({
      kind: 'card_number',
      rule: 'luhn_card_number',
      start: match.index,
      end: match.index + match[0].length,
      description: 'payment card number (Luhn-valid, known issuer prefix; unusual separators)',
    });
  });
  return findings;
}
