/**
 * Cairn's own support check (ARCHITECTURE invariant 3), independent of both models: every figure a claim states
 * must appear, normalized, in the evidence text it cites. Pure and deterministic.
 *
 * Figures, read from the NFKC-normalized, lower-cased text in this order (each span is read once):
 * - `url`      http(s) and `www.` URLs; compared as WHATWG hrefs without a trailing slash or fragment;
 * - `email`    addresses, lower-cased;
 * - `date`     ISO `2026-03-01`, `1 March 2026`, `March 1st, 2026`, `Mar 1`; a claim date without a year matches
 *              any year; one with a year needs that year;
 * - `time`     `9am`, `9:30 pm`, `17:00`, `noon`, `midnight` → minutes of the day; also matched by a bare hour in
 *              the evidence (`Saturday 9–13` supports "until 1 pm" and "until 13:00");
 * - `amount`   a currency symbol or code/word with a number (`$30`, `30 USD`, `€1,250.50`, `30 euros`);
 * - `percent`  `15%`, `15 percent`;
 * - `duration` a number with a unit (`30 days`, `30-day`, `two weeks`, `48 hrs`, `5 business days`);
 * - `month`, `weekday`  names and common abbreviations; a weekday range in the evidence (`Mon–Fri`, `Monday to
 *              Friday`) covers every day inside it;
 * - `number`   every other number, in digits (`1,000`, `2.5`) or words (`two` … `ninety`, `hundred`, `thousand`;
 *              not `one`, which is mostly a pronoun).
 * Matching: a typed figure (url, email, date, time, amount, percent, duration, month, weekday) needs the same typed
 * figure in the evidence; a plain number needs the same value anywhere in the evidence, inside any figure there but
 * a percentage; a whole hour also matches a bare number there (`9–13`).
 *
 * What it cannot catch (the reviewer is the only check there): a claim whose figures are all in the evidence but
 * which says something else about them ("closed 9–13" where the evidence says open), claims without figures,
 * negations, and figures in a form it does not read (Roman numerals, "a fortnight", "half past nine").
 */

import { CURRENCY_CODES, CURRENCY_WORD, NUM, NUMBER_WORD, NUMBER_WORDS, UNITS, VALUE } from './figure-words';

export type FigureKind =
  'url' | 'email' | 'date' | 'time' | 'amount' | 'percent' | 'duration' | 'month' | 'weekday' | 'number';

export interface Figure {
  kind: FigureKind;
  /** The normalized value compared with the evidence. */
  key: string;
  /** The text it was read from (for the reason of a refusal). */
  text: string;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const WEEKDAY = String.raw`((?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?|mon|tues?|wed|thur?s?|fri|sat(?=[.–—-])|sun(?=[.–—-]))\.?`;

const UNIT = String.raw`(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\b`;
const DURATION_QUALIFIER = String.raw`(?:(?:calendar|business|working|full|consecutive)\s+)?`;

/** A number as a canonical string: `1,000` → `1000`, `2,5` → `2.5`, `07` → `7`, words → digits. */
export function numberValue(raw: string): string | null {
  const word = NUMBER_WORDS[raw];
  if (word !== undefined) return String(word);
  let text = raw;
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) text = text.replace(/,/g, '');
  else if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(text)) text = text.replace(/\./g, '').replace(',', '.');
  else if (/^\d+,\d{1,2}$/.test(text)) text = text.replace(',', '.');
  const value = Number(text);
  return Number.isFinite(value) ? String(value) : null;
}

function monthNumber(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3)) + 1;
}

function weekdayIndex(name: string): number {
  return WEEKDAYS.indexOf(name.slice(0, 3));
}

function urlKey(raw: string): string {
  try {
    const url = new URL(/^www\./.test(raw) ? `http://${raw}` : raw);
    url.hash = '';
    return `${url.host}${url.pathname.replace(/\/+$/, '')}${url.search}`;
  } catch {
    return raw;
  }
}

function minutesOfDay(hour: number, minute: number, meridiem: string | undefined): number | null {
  let h = hour;
  if (meridiem !== undefined) {
    if (h < 1 || h > 12) return null;
    const pm = meridiem.startsWith('p');
    h = (h % 12) + (pm ? 12 : 0);
  }
  if (h > 24 || minute > 59) return null;
  return (h % 24) * 60 + minute;
}

type Reader = { kind: FigureKind; pattern: RegExp; read: (m: RegExpExecArray) => string[] | null };

/** The readers, in the order spans are taken. `read` returns keys (several for a range), or null to skip. */
const READERS: Reader[] = [
  {
    kind: 'url',
    pattern: /\b(?:https?:\/\/|www\.)[^\s<>"'`]+/g,
    read: (m) => [urlKey(m[0].replace(/[.,;:!?)\]}'"]+$/, ''))],
  },
  { kind: 'email', pattern: /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/g, read: (m) => [m[0]] },
  {
    kind: 'date',
    pattern: /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g,
    read: (m) => [`${Number(m[1])}-${Number(m[2])}-${Number(m[3])}`],
  },
  {
    kind: 'date',
    pattern: new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH}(?:,?\s+(\d{4}))?\b`, 'g'),
    read: (m) => [`${m[3] ? Number(m[3]) : '*'}-${monthNumber(m[2])}-${Number(m[1])}`],
  },
  {
    kind: 'date',
    pattern: new RegExp(String.raw`\b${MONTH}\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4})\b)?`, 'g'),
    read: (m) => [`${m[3] ? Number(m[3]) : '*'}-${monthNumber(m[1])}-${Number(m[2])}`],
  },
  {
    kind: 'time',
    pattern: /\b(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])/g,
    read: (m) => {
      const minutes = minutesOfDay(Number(m[1]), Number(m[2] ?? 0), m[3]);
      return minutes === null ? null : [String(minutes)];
    },
  },
  {
    kind: 'time',
    pattern: /\b(\d{1,2}):(\d{2})\b/g,
    read: (m) => {
      const minutes = minutesOfDay(Number(m[1]), Number(m[2]), undefined);
      return minutes === null ? null : [String(minutes)];
    },
  },
  { kind: 'time', pattern: /\b(noon|midday|midnight)\b/g, read: (m) => [m[1] === 'midnight' ? '0' : '720'] },
  {
    kind: 'amount',
    pattern: new RegExp(String.raw`(us\$|[$€£¥₹])\s?(${NUM})`, 'g'),
    read: (m) => [`${CURRENCY_CODES[m[1]]}:${numberValue(m[2])}`],
  },
  {
    kind: 'amount',
    pattern: new RegExp(String.raw`\b(usd|eur|gbp|chf|cad|aud|jpy|inr)\s?(${NUM})`, 'g'),
    read: (m) => [`${CURRENCY_CODES[m[1]]}:${numberValue(m[2])}`],
  },
  {
    kind: 'amount',
    pattern: new RegExp(String.raw`\b(${VALUE})\s?${CURRENCY_WORD}`, 'g'),
    read: (m) => [`${CURRENCY_CODES[m[2]]}:${numberValue(m[1])}`],
  },
  {
    kind: 'percent',
    pattern: new RegExp(String.raw`\b(${VALUE})\s?(?:%|percent\b|per cent\b)`, 'g'),
    read: (m) => [String(numberValue(m[1]))],
  },
  {
    kind: 'duration',
    pattern: new RegExp(String.raw`\b(${VALUE})(?:\s*-\s*|\s+)${DURATION_QUALIFIER}${UNIT}`, 'g'),
    read: (m) => [`${numberValue(m[1])}${UNITS[m[2]]}`],
  },
  {
    kind: 'weekday',
    pattern: new RegExp(
      String.raw`\b${WEEKDAY}(?:\s*(?:–|—|-|to|through|thru|until|till)\s*${WEEKDAY})?\b`,
      'g',
    ),
    read: (m) => {
      const from = weekdayIndex(m[1]);
      if (m[2] === undefined) return [WEEKDAYS[from]];
      const to = weekdayIndex(m[2]);
      const days: string[] = [];
      for (let i = from; ; i = (i + 1) % 7) {
        days.push(WEEKDAYS[i]);
        if (i === to || days.length === 7) break;
      }
      return days;
    },
  },
  {
    // "may" alone is a verb far more often than a month: it counts only inside a date.
    kind: 'month',
    pattern: new RegExp(String.raw`\b${MONTH}(?![a-z])`, 'g'),
    read: (m) => (m[1] === 'may' ? null : [String(monthNumber(m[1]))]),
  },
  {
    kind: 'number',
    pattern: new RegExp(String.raw`(?<![\d.,])${NUM}(?![\d])|\b${NUMBER_WORD}\b`, 'g'),
    read: (m) => {
      const value = numberValue(m[0].replace(/[.,]$/, ''));
      return value === null ? null : [value];
    },
  },
];

/** The text as figures are read from it: NFKC, lower case, dashes unified, invisible characters removed. */
function normalize(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u00AD\u200B-\u200F\u2060\uFEFF]/g, '')
    .replace(/[\u2010-\u2015\u2212]/g, (dash) => (dash === '\u2013' || dash === '\u2014' ? dash : '-'));
}

/** Reads every figure of a text, in reader order; returns the text with each figure's span blanked. */
function readFigures(text: string, figures: Figure[]): string {
  let rest = normalize(text);
  for (const reader of READERS) {
    rest = rest.replace(reader.pattern, (...args: unknown[]) => {
      const match = args.slice(0, -2) as unknown as RegExpExecArray;
      const keys = reader.read(match);
      if (keys === null) return match[0];
      for (const key of keys) figures.push({ kind: reader.kind, key, text: match[0] });
      return ' '.repeat(match[0].length);
    });
  }
  return rest;
}

/** Every figure of a text, in reader order. */
export function extractFigures(text: string): Figure[] {
  const figures: Figure[] = [];
  readFigures(text, figures);
  return figures;
}

/** The text (normalized, lower case) without its figures: what the wording check compares. */
export function withoutFigures(text: string): string {
  return readFigures(text, []);
}

const PERCENT = new RegExp(String.raw`\b${VALUE}\s?(?:%|percent\b|per cent\b)`, 'g');

/**
 * Every number value anywhere in a text, inside figures or not (what a plain number of a claim may match), except
 * percentages: "15%" in the evidence does not make "open until 15" stated.
 */
function allNumbers(text: string): Set<string> {
  const numbers = new Set<string>();
  const pattern = new RegExp(String.raw`\d+(?:[.,]\d+)*|\b${NUMBER_WORD}\b`, 'g');
  for (const match of normalize(text).replace(PERCENT, ' ').matchAll(pattern)) {
    const raw = match[0];
    for (const value of [numberValue(raw), ...raw.split(/[.,]/).map((part) => numberValue(part))])
      if (value !== null) numbers.add(value);
  }
  return numbers;
}

export interface EvidenceFigures {
  typed: Set<string>;
  numbers: Set<string>;
}

/** What the evidence texts a claim cites offer to match its figures. */
export function evidenceFigures(texts: readonly string[]): EvidenceFigures {
  const typed = new Set<string>();
  const numbers = new Set<string>();
  for (const text of texts) {
    for (const figure of extractFigures(text)) typed.add(`${figure.kind}:${figure.key}`);
    for (const value of allNumbers(text)) numbers.add(value);
  }
  return { typed, numbers };
}

function supported(figure: Figure, evidence: EvidenceFigures): boolean {
  if (evidence.typed.has(`${figure.kind}:${figure.key}`)) return true;
  switch (figure.kind) {
    case 'number':
      return evidence.numbers.has(figure.key);
    case 'date': {
      const [year, month, day] = figure.key.split('-');
      if (year !== '*') return evidence.typed.has(`date:*-${month}-${day}`) && evidence.numbers.has(year);
      return [...evidence.typed].some((key) => key.startsWith('date:') && key.endsWith(`-${month}-${day}`));
    }
    case 'time': {
      const minutes = Number(figure.key);
      if (minutes % 60 !== 0) return false;
      const hour = minutes / 60;
      return evidence.numbers.has(String(hour)) || (hour === 0 && evidence.numbers.has('24'));
    }
    case 'month':
      return [...evidence.typed].some((key) => key.startsWith('date:') && key.split('-')[1] === figure.key);
    default:
      return false;
  }
}

/** The figures of `claim` that the cited evidence (read once by evidenceFigures) does not state. */
export function unsupportedFiguresIn(claim: string, evidence: () => EvidenceFigures): Figure[] {
  const figures = extractFigures(claim);
  if (figures.length === 0) return [];
  const read = evidence();
  return figures.filter((figure) => !supported(figure, read));
}

/** The figures of `claim` that the cited evidence texts do not state (empty: every figure is supported). */
export function unsupportedFigures(claim: string, citedTexts: readonly string[]): Figure[] {
  return unsupportedFiguresIn(claim, () => evidenceFigures(citedTexts));
}
