/**
 * Typed facts (ARCHITECTURE invariant 3): every figure a claim states must be a figure its own quotes state, of the
 * same kind, value and unit. Cairn's own check, independent of both models; pure and deterministic.
 *
 * Figures are read from the normalized text (NFKC, lower case, invisible characters removed, every Unicode decimal
 * digit as its ASCII digit, dashes unified), each span once, in this order:
 * - `url`      http(s), `www.` and bare-domain links (`acme-shop.com/help`); compared as host + path + query;
 * - `email`    addresses;
 * - `date`     ISO `2026-03-01`; numeric `18/04/2026` (day/month order read when one part is above 12, else the
 *              date is ambiguous and matches only the same form); `1 March 2026`, `March 1st, 2026`, `18 de abril`;
 *              a claim date without a year matches any year;
 * - `time`     `9am`, `9:30 pm`, `17:00`, `17h30`, `17 Uhr`, `noon`, `midnight` → minutes of the day (so 17:30 is
 *              5:30 pm, and 9 am is not 9 pm); a whole hour also matches a bare number of its quote (`Saturday 9–13`);
 * - `zone`     `CET`, `UTC`, `Eastern`, … (a claim's zone must be its quote's);
 * - `amount`   a currency symbol, ISO code or word before or after a number (`$30`, `30 USD`, `35 €`, `SEK 50`), with
 *              its rate when one follows (`€35 per day`, `$20/hour`); `1,500`/`1.500` read by the currency's
 *              convention, ambiguous (same form only) where it has none;
 * - `phone`    phone numbers (libphonenumber-js; E.164 when possible, else their digits);
 * - `percent`  `15%`, `15 percent`, `15 por ciento` (with a rate: `5% per year`);
 * - `duration` a count with a unit and its qualifier (`30 days`, `30-day`, `two weeks`, `one business day`, `an
 *              hour`, `5 días hábiles`), and `forever`/`indefinitely` (no end);
 * - `weekday`  names and ranges (`Mon–Fri`, `lunes a viernes`): a range covers the days inside it;
 * - `month`    names (not `may` alone);
 * - `number`   every other number, digits or words (`thirty-five`; `one` only before a unit).
 * Matching: a claim's typed figure needs the same typed figure in its quotes; a plain number needs a quote number,
 * or the amount, duration or year value of a quote figure (never a fragment: `99` is not in `$4.99`).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import {
  BUSINESS,
  BUSINESS_AFTER,
  CALENDAR,
  COUNTED,
  CURRENCY_BEFORE,
  CURRENCY_CODES,
  CURRENCY_SYMBOL,
  CURRENCY_WORD,
  DOT_DECIMAL_CURRENCIES,
  MONTH,
  MONTHS,
  NUM,
  NUMBER_WORD,
  RANGE_JOIN,
  RATE,
  RATE_UNITS,
  UNIT,
  UNITS,
  VALUE,
  WEEKDAY,
  WEEKDAYS,
  numberWordValue,
} from './figure-words';

export type FigureKind =
  | 'url'
  | 'email'
  | 'date'
  | 'time'
  | 'zone'
  | 'amount'
  | 'phone'
  | 'percent'
  | 'duration'
  | 'month'
  | 'weekday'
  | 'number';

export interface Figure {
  kind: FigureKind;
  /** The normalized value compared with the quotes. */
  key: string;
  /** The text it was read from (for the reason of a refusal). */
  text: string;
  /** The plain number a figure also states (an amount's, a duration's count, a date's year): what a bare number may match. */
  value?: string;
}

const B = String.raw`(?<![\p{L}\p{N}_])`;
const E = String.raw`(?![\p{L}\p{N}_])`;
const WEEKDAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/**
 * A number as a canonical string: `1,000` → `1000`, `2,5` → `2.5`, `07` → `7`, words → digits. `currency` decides
 * `1,500` and `1.500` (one group of three): by its convention when it has one (`$`: comma thousands, dot decimal),
 * else the number is ambiguous and its key is its own form (`~1.500`), equal only to the same form.
 */
export function numberValue(raw: string, currency: string | null = null): string | null {
  const word = numberWordValue(raw);
  if (word !== undefined) return String(word);
  let text = raw;
  if (/^\d{1,3}[.,]\d{3}$/.test(text)) {
    if (currency === null || !DOT_DECIMAL_CURRENCIES.has(currency)) return `~${text}`;
    text = text.replace(',', '');
  } else if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) text = text.replace(/,/g, '');
  else if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(text)) text = text.replace(/\./g, '').replace(',', '.');
  else if (/^\d+,\d{1,2}$/.test(text)) text = text.replace(',', '.');
  const value = Number(text);
  return /^[\d.]+$/.test(text) && Number.isFinite(value) ? String(value) : null;
}

function urlKey(raw: string): string {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(raw) ? raw : `http://${raw}`);
    url.hash = '';
    return `${url.host.replace(/^www\./, '')}${url.pathname.replace(/\/+$/, '')}${url.search}`;
  } catch {
    return raw;
  }
}

function minutesOfDay(hour: number, minute: number, meridiem: string | undefined): number | null {
  let h = hour;
  if (meridiem !== undefined) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (meridiem.startsWith('p') ? 12 : 0);
  }
  if (h > 24 || minute > 59) return null;
  return (h % 24) * 60 + minute;
}

function dateKey(year: string | undefined, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const y = year === undefined ? '*' : String(year.length === 2 ? 2000 + Number(year) : Number(year));
  return `${y}-${month}-${day}`;
}

function phoneKey(raw: string): string {
  const parsed = parsePhoneNumberFromString(raw, 'US');
  if (parsed?.isPossible()) return parsed.number;
  return `${raw.trim().startsWith('+') ? '+' : ''}${raw.replace(/\D/g, '')}`;
}

const ZONES: Record<string, string> = {
  cet: 'cet',
  cest: 'cet',
  'central european': 'cet',
  utc: 'utc',
  gmt: 'utc',
  bst: 'bst',
  est: 'eastern',
  edt: 'eastern',
  eastern: 'eastern',
  cst: 'central',
  cdt: 'central',
  central: 'central',
  mst: 'mountain',
  mdt: 'mountain',
  mountain: 'mountain',
  pst: 'pacific',
  pdt: 'pacific',
  pacific: 'pacific',
  aest: 'aest',
  jst: 'jst',
};

type Read = Array<{ key: string; value?: string }> | null;
type Reader = { kind: FigureKind; pattern: RegExp; read: (m: RegExpExecArray) => Read };
const re = (source: string) => new RegExp(source, 'gu');
const one = (key: string, value?: string): Read => [{ key, value }];

function amount(currencyRaw: string, numberRaw: string, rateRaw: string | undefined): Read {
  const currency = CURRENCY_CODES[currencyRaw] ?? currencyRaw;
  const value = numberValue(numberRaw, currency);
  if (value === null) return null;
  const rate = rateRaw === undefined ? '' : `/${RATE_UNITS[rateRaw] ?? rateRaw}`;
  return one(`${currency}:${value}${rate}`, value);
}

/** The readers, in the order spans are taken. `read` returns keys (several for a range), or null to skip. */
const READERS: Reader[] = [
  {
    kind: 'url',
    pattern: /\b(?:https?:\/\/|www\.)[^\s<>"'`]+/g,
    read: (m) => one(urlKey(m[0].replace(/[.,;:!?)\]}'"]+$/, ''))),
  },
  { kind: 'email', pattern: /[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/g, read: (m) => one(m[0]) },
  {
    kind: 'url',
    pattern: re(
      String.raw`${B}[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|co|uk|de|es|fr|eu|shop|app|dev|info|biz|us|ca|help|store)(?:/[^\s<>"'\x60]*)?${E}`,
    ),
    read: (m) => one(urlKey(m[0].replace(/[.,;:!?)\]}'"]+$/, ''))),
  },
  {
    kind: 'date',
    pattern: /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g,
    read: (m) => {
      const key = dateKey(m[1], Number(m[2]), Number(m[3]));
      return key === null ? null : one(key, String(Number(m[1])));
    },
  },
  {
    kind: 'date',
    pattern: /\b(\d{1,2})([/.])(\d{1,2})\2(\d{4}|\d{2})\b/g,
    read: (m) => {
      const [a, b] = [Number(m[1]), Number(m[3])];
      const year = String(m[4].length === 2 ? 2000 + Number(m[4]) : Number(m[4]));
      if (a > 12 && b <= 12) return one(dateKey(year, b, a) ?? '', year);
      if (b > 12 && a <= 12) return one(dateKey(year, a, b) ?? '', year);
      return one(`~${a}/${b}/${year}`, year);
    },
  },
  {
    kind: 'date',
    pattern: re(
      String.raw`${B}(\d{1,2})(?:st|nd|rd|th|er|\.)?\s+(?:de\s+|of\s+)?${MONTH}(?:,?\s+(?:de\s+)?(\d{4}))?${E}`,
    ),
    read: (m) => {
      const key = dateKey(m[3], MONTHS[m[2]], Number(m[1]));
      return key === null ? null : one(key, m[3]);
    },
  },
  {
    kind: 'date',
    pattern: re(String.raw`${B}${MONTH}\s+(\d{1,2})(?:st|nd|rd|th)?${E}(?:,?\s+(\d{4})${E})?`),
    read: (m) => {
      const key = dateKey(m[3], MONTHS[m[1]], Number(m[2]));
      return key === null ? null : one(key, m[3]);
    },
  },
  {
    kind: 'time',
    pattern: /\b(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])/g,
    read: (m) => {
      const minutes = minutesOfDay(Number(m[1]), Number(m[2] ?? 0), m[3]);
      return minutes === null ? null : one(String(minutes));
    },
  },
  {
    kind: 'time',
    pattern: /\b(\d{1,2})(?::(\d{2})|[.h](\d{2})|\s?h|\s?uhr)(?![\d\p{L}])/gu,
    read: (m) => {
      const minutes = minutesOfDay(Number(m[1]), Number(m[2] ?? m[3] ?? 0), undefined);
      return minutes === null ? null : one(String(minutes));
    },
  },
  {
    kind: 'time',
    pattern: re(`${B}(noon|midday|midnight|mediodía|medianoche|mittag|mitternacht|midi|minuit)${E}`),
    read: (m) => one(/^(midnight|medianoche|mitternacht|minuit)$/.test(m[1]) ? '0' : '720'),
  },
  {
    kind: 'zone',
    pattern: re(`${B}(central european|${Object.keys(ZONES).join('|')})${E}`),
    read: (m) => one(ZONES[m[1]]),
  },
  {
    kind: 'amount',
    pattern: re(String.raw`${CURRENCY_SYMBOL}\s?(${NUM})(?:${RATE})?`),
    read: (m) => amount(m[1], m[2], m[3]),
  },
  {
    kind: 'amount',
    pattern: re(String.raw`${B}${CURRENCY_BEFORE}\s?(${NUM})(?:${RATE})?`),
    read: (m) => amount(m[1], m[2], m[3]),
  },
  {
    kind: 'amount',
    pattern: re(String.raw`${B}(${VALUE})\s?(?:${CURRENCY_SYMBOL}|${CURRENCY_WORD})(?:${RATE})?`),
    read: (m) => amount(m[2] ?? m[3], m[1], m[4]),
  },
  {
    kind: 'phone',
    pattern: /(?<![\w+.,/:-])(?:\+\d[\d ().-]{5,}\d|\(?\d{2,4}\)?[ -]\d[\d -]{3,}\d)(?![\d\w])/g,
    read: (m) => (m[0].replace(/\D/g, '').length >= 7 ? one(phoneKey(m[0])) : null),
  },
  {
    kind: 'percent',
    pattern: re(
      String.raw`${B}(${VALUE})\s?(?:%|percent${E}|per cent${E}|por ciento${E}|prozent${E}|pour cent${E})(?:${RATE})?`,
    ),
    read: (m) => {
      const value = numberValue(m[1]);
      if (value === null) return null;
      return one(`${value}${m[2] === undefined ? '' : `/${RATE_UNITS[m[2]]}`}`);
    },
  },
  {
    kind: 'duration',
    pattern: re(
      String.raw`${B}(${COUNTED})(?:\s*-\s*|\s+)(?:(${BUSINESS}|${CALENDAR})(?:\s*-\s*|\s+))?${UNIT}(?:\s+(${BUSINESS_AFTER})${E})?`,
    ),
    read: (m) => {
      const value = numberValue(m[1]);
      if (value === null) return null;
      const unitWord = m[3];
      const business =
        (m[2] !== undefined && !/^(calendar|consecutive)$/.test(m[2])) ||
        m[4] !== undefined ||
        unitWord.startsWith('werktag');
      const qualifier = business ? ' business' : m[2] !== undefined ? ' calendar' : '';
      return one(`${value}${UNITS[unitWord]}${qualifier}`, value);
    },
  },
  {
    kind: 'duration',
    pattern: re(
      `${B}(forever|indefinitely|for life|lifetime|permanently|never expires?|no expiry|no expiration date|para siempre|für immer|pour toujours)${E}`,
    ),
    read: () => one('unlimited'),
  },
  {
    kind: 'weekday',
    pattern: re(String.raw`${B}(?:from\s+|de\s+|von\s+|du\s+)?${WEEKDAY}(?:\s*${RANGE_JOIN}\s*${WEEKDAY})?`),
    read: (m) => {
      const from = WEEKDAYS[m[1]];
      if (m[2] === undefined) return one(WEEKDAY_KEYS[from]);
      const to = WEEKDAYS[m[2]];
      const days: Array<{ key: string }> = [];
      for (let i = from; ; i = (i + 1) % 7) {
        days.push({ key: WEEKDAY_KEYS[i] });
        if (i === to || days.length === 7) break;
      }
      return days;
    },
  },
  {
    // "may" alone is a verb far more often than a month (and "mar" a sea, "mes" a word): they count only in a date.
    kind: 'month',
    pattern: re(`${B}${MONTH}`),
    read: (m) => (/^(may|mar|mes|mai|jun|jul)$/.test(m[1]) ? null : one(String(MONTHS[m[1]]))),
  },
  {
    kind: 'number',
    pattern: re(String.raw`(?<![\d.,])${NUM}(?![\d])|${B}${NUMBER_WORD}${E}`),
    read: (m) => {
      const value = numberValue(m[0].replace(/[.,]$/, ''));
      return value === null ? null : one(value, value);
    },
  },
];

/** Every Unicode decimal digit (Arabic-Indic, Devanagari, …) as its ASCII digit. */
export function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (digit) => {
    const code = digit.codePointAt(0) ?? 0;
    let zero = code;
    while (zero > code - 9 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero -= 1;
    return String((code - zero) % 10);
  });
}

/** The text as figures are read from it: NFKC, lower case, invisible characters removed, ASCII digits, dashes unified. */
export function normalizeFigures(text: string): string {
  return asciiDigits(
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]/g, ''),
  ).replace(/[\u2010-\u2015\u2212]/g, (dash) => (dash === '\u2013' || dash === '\u2014' ? dash : '-'));
}

/** Where a figure was read in the normalized text (a weekday range gives several figures one span). */
interface Span {
  start: number;
  end: number;
}

/** Reads every figure of a text, in reader order; returns the text with each figure's span blanked. */
function readFigures(text: string, figures: Figure[], spans: Span[]): string {
  let rest = normalizeFigures(text);
  for (const reader of READERS) {
    rest = rest.replace(reader.pattern, (...args: unknown[]) => {
      const groups = args.findIndex((a) => typeof a === 'number');
      const match = args.slice(0, groups) as unknown as RegExpExecArray;
      const keys = reader.read(match);
      if (keys === null) return match[0];
      const start = args[groups] as number;
      for (const { key, value } of keys) {
        figures.push({ kind: reader.kind, key, text: match[0], ...(value === undefined ? {} : { value }) });
        spans.push({ start, end: start + match[0].length });
      }
      return ' '.repeat(match[0].length);
    });
  }
  return rest;
}

interface ReadText {
  figures: Figure[];
  /** `spans[i]` is where `figures[i]` was read. */
  spans: Span[];
  rest: string;
}

/** The last texts read (a claim and its quotes are read by the figure and the wording checks alike). */
const READ_CACHE = new Map<string, ReadText>();
const READ_CACHE_SIZE = 64;

function read(text: string): ReadText {
  const cached = READ_CACHE.get(text);
  if (cached !== undefined) return cached;
  const figures: Figure[] = [];
  const spans: Span[] = [];
  const rest = readFigures(text, figures, spans);
  if (READ_CACHE.size >= READ_CACHE_SIZE) READ_CACHE.delete(READ_CACHE.keys().next().value as string);
  READ_CACHE.set(text, { figures, spans, rest });
  return { figures, spans, rest };
}

/** Every figure of a text, in reader order. */
export function extractFigures(text: string): Figure[] {
  return read(text).figures.map((figure) => ({ ...figure }));
}

/** The text (normalized, lower case) without its figures: what the wording check compares. */
export function withoutFigures(text: string): string {
  return read(text).rest;
}

/** What a claim's quotes offer to match its figures. */
interface EvidenceFigures {
  /** `kind:key` of every figure. */
  typed: Set<string>;
  /** Standalone numbers, and the values figures state (amounts, counts of durations, years of dates). */
  numbers: Set<string>;
  /** Standalone numbers only (what a bare hour matches). */
  bare: Set<string>;
}

/** What some figures offer to match a claim's figures. */
function evidenceOf(figures: readonly Figure[]): EvidenceFigures {
  const read: EvidenceFigures = { typed: new Set(), numbers: new Set(), bare: new Set() };
  for (const figure of figures) {
    read.typed.add(`${figure.kind}:${figure.key}`);
    if (figure.kind === 'number') read.bare.add(figure.key);
    if (figure.value !== undefined && figure.kind !== 'percent') read.numbers.add(figure.value);
  }
  return read;
}

/** What the quote texts of a claim offer to match its figures. */
function evidenceFigures(texts: readonly string[]): EvidenceFigures {
  return evidenceOf(texts.flatMap((text) => read(text).figures));
}

/** Whether `figures` (of one place in a quote) state the claim's `figure`, by the figure check's rules. */
export function figuresSupport(figures: readonly Figure[], figure: Figure): boolean {
  return supported(figure, evidenceOf(figures));
}

/**
 * The figures of a text by place: each span of the normalized text (`normalizeFigures`) read as figures, in text
 * order, with its figures (a weekday range is one span of several days); the rest of the text is `withoutFigures`.
 */
export function figurePlaces(text: string): Array<{ start: number; end: number; figures: Figure[] }> {
  const { figures, spans } = read(text);
  const places = new Map<number, { start: number; end: number; figures: Figure[] }>();
  for (const [i, figure] of figures.entries()) {
    const { start, end } = spans[i];
    const place = places.get(start) ?? { start, end, figures: [] };
    place.figures.push({ ...figure });
    places.set(start, place);
  }
  return [...places.values()].sort((a, b) => a.start - b.start);
}

function supported(figure: Figure, evidence: EvidenceFigures): boolean {
  if (evidence.typed.has(`${figure.kind}:${figure.key}`)) return true;
  switch (figure.kind) {
    case 'number':
      return evidence.numbers.has(figure.key);
    case 'date': {
      if (figure.key.startsWith('~')) return false;
      const [year, month, day] = figure.key.split('-');
      if (year !== '*') return evidence.typed.has(`date:*-${month}-${day}`) && evidence.numbers.has(year);
      return [...evidence.typed].some((key) => /^date:\d+-/.test(key) && key.endsWith(`-${month}-${day}`));
    }
    case 'time': {
      const minutes = Number(figure.key);
      if (minutes % 60 !== 0) return false;
      const hour = minutes / 60;
      return evidence.bare.has(String(hour)) || (hour === 0 && evidence.bare.has('24'));
    }
    case 'month':
      return [...evidence.typed].some(
        (key) => key.startsWith('date:') && !key.startsWith('date:~') && key.split('-')[1] === figure.key,
      );
    default:
      return false;
  }
}

/** The figures of `claim` that its quotes (read once by evidenceFigures) do not state. */
function unsupportedFiguresIn(claim: string, evidence: () => EvidenceFigures): Figure[] {
  const figures = extractFigures(claim);
  if (figures.length === 0) return [];
  const read = evidence();
  return figures.filter((figure) => !supported(figure, read));
}

/** The figures of `claim` that the quote texts do not state (empty: every figure is supported). */
export function unsupportedFigures(claim: string, quoteTexts: readonly string[]): Figure[] {
  return unsupportedFiguresIn(claim, () => evidenceFigures(quoteTexts));
}

/** What joins the two ends of a range: a dash, or a word ("to", "until", "and" after "between", …). */
const RANGE_GAP = new RegExp(String.raw`^\s*(?:${RANGE_JOIN}|and|y|und|et)\s*$`, 'u');
/** The kinds whose two ends make a range (weekday ranges are one span, read as days). */
const RANGE_KINDS: ReadonlySet<FigureKind> = new Set([
  'time',
  'amount',
  'percent',
  'date',
  'duration',
  'number',
]);

/**
 * The ranges of `claim` ("8:30–17:30", "$10 to $20", "between 3 and 5 days") whose two ends no single quote states
 * together: each end may be in some quote, but a range blended from two sources ("8:30" from the contact page,
 * "17:30" from the clinic's hours) is a figure no source gives. Returns the second end of each such range.
 */
export function rangesAcrossQuotes(claim: string, quoteTexts: readonly string[]): Figure[] {
  const { figures, spans } = read(claim);
  if (figures.length < 2 || quoteTexts.length < 2) return [];
  const normalized = normalizeFigures(claim);
  const order = figures.map((_, i) => i).sort((a, b) => spans[a].start - spans[b].start);
  const each = quoteTexts.map((text) => evidenceFigures([text]));
  const blended: Figure[] = [];
  for (let k = 1; k < order.length; k += 1) {
    const [a, b] = [order[k - 1], order[k]];
    if (
      spans[a].end > spans[b].start ||
      !RANGE_KINDS.has(figures[a].kind) ||
      !RANGE_KINDS.has(figures[b].kind)
    )
      continue;
    if (!RANGE_GAP.test(normalized.slice(spans[a].end, spans[b].start))) continue;
    if (!each.some((quote) => supported(figures[a], quote) && supported(figures[b], quote)))
      blended.push({ ...figures[b] });
  }
  return blended;
}
