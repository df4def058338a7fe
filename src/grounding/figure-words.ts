/**
 * Words of the figures read by claim-figures.ts: number words, currencies, duration units, months and weekdays, in
 * English, Spanish, German and French (the languages whose negations and conditions the wording checks know).
 */

const UNITS_WORDS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
};
const TEENS: Record<string, number> = {
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
/** Number words of the other supported languages (the common ones a support reply uses). */
const OTHER_LANGUAGE_NUMBERS: Record<string, number> = {
  dos: 2,
  tres: 3,
  cuatro: 4,
  cinco: 5,
  seis: 6,
  siete: 7,
  ocho: 8,
  nueve: 9,
  diez: 10,
  quince: 15,
  veinte: 20,
  treinta: 30,
  zwei: 2,
  drei: 3,
  vier: 4,
  fünf: 5,
  sechs: 6,
  sieben: 7,
  acht: 8,
  neun: 9,
  zehn: 10,
  zwölf: 12,
  vierzehn: 14,
  dreißig: 30,
  deux: 2,
  trois: 3,
  quatre: 4,
  cinq: 5,
  sept: 7,
  huit: 8,
  neuf: 9,
  dix: 10,
  quinze: 15,
  vingt: 20,
  trente: 30,
};

/** Every number word with its value; compounds (`thirty-five`) are read by `numberWordValue`. */
export const NUMBER_WORDS: Record<string, number> = {
  ...UNITS_WORDS,
  ...TEENS,
  ...TENS,
  hundred: 100,
  thousand: 1000,
  dozen: 12,
  ...OTHER_LANGUAGE_NUMBERS,
};
/** `one` is a pronoun more often than a figure: it (and `a`/`an`) count only before a unit or a currency. */
const STANDALONE_WORDS = Object.keys(NUMBER_WORDS).filter((w) => w !== 'one' && w !== 'zero');
const byLength = (words: string[]) => [...words].sort((a, b) => b.length - a.length).join('|');
const COMPOUND = `(?:${byLength(Object.keys(TENS))})[- ](?:${byLength(Object.keys(UNITS_WORDS).filter((w) => w !== 'zero'))})`;
/** A number word standing alone (not `one`), compounds first. */
export const NUMBER_WORD = `(?:${COMPOUND}|${byLength(STANDALONE_WORDS)})`;
/** A number word before a unit or currency, where `one`, `a` and `an` are figures too. */
export const COUNTED_WORD = `(?:${COMPOUND}|${byLength(Object.keys(NUMBER_WORDS))}|an?)`;

/** The value of a number word or compound (`thirty-five` → 35; `a`/`an` → 1), or undefined. */
export function numberWordValue(word: string): number | undefined {
  if (word === 'a' || word === 'an') return 1;
  const direct = NUMBER_WORDS[word];
  if (direct !== undefined) return direct;
  const [tens, unit] = word.split(/[- ]/);
  if (TENS[tens] !== undefined && UNITS_WORDS[unit] !== undefined) return TENS[tens] + UNITS_WORDS[unit];
  return undefined;
}

export const NUM = String.raw`\d+(?:[.,]\d+)*`;
export const VALUE = `(?:${NUM}|${NUMBER_WORD})`;
export const COUNTED = `(?:${NUM}|${COUNTED_WORD})`;

/** Currency symbols and words → ISO 4217 code (or `cent`). */
export const CURRENCY_CODES: Record<string, string> = {
  $: 'usd',
  us$: 'usd',
  dollar: 'usd',
  dollars: 'usd',
  '€': 'eur',
  euro: 'eur',
  euros: 'eur',
  '£': 'gbp',
  pound: 'gbp',
  pounds: 'gbp',
  '¥': 'jpy',
  yen: 'jpy',
  '₹': 'inr',
  rupees: 'inr',
  '₽': 'rub',
  '₩': 'krw',
  r$: 'brl',
  c$: 'cad',
  a$: 'aud',
  ca$: 'cad',
  au$: 'aud',
  francs: 'chf',
  kr: 'kr',
  cent: 'cent',
  cents: 'cent',
  céntimos: 'cent',
};
/** ISO 4217 codes read as currencies (before or after the amount). */
export const ISO_CODES = [
  'usd',
  'eur',
  'gbp',
  'chf',
  'cad',
  'aud',
  'nzd',
  'jpy',
  'cny',
  'inr',
  'sek',
  'nok',
  'dkk',
  'pln',
  'czk',
  'huf',
  'sgd',
  'hkd',
  'mxn',
  'brl',
  'zar',
  'try',
  'rub',
  'krw',
];
for (const code of ISO_CODES) CURRENCY_CODES[code] = code;
/** Currencies whose amounts use `,` for thousands and `.` for decimals (anything else is ambiguous). */
export const DOT_DECIMAL_CURRENCIES = new Set([
  'usd',
  'gbp',
  'jpy',
  'inr',
  'cad',
  'aud',
  'nzd',
  'cny',
  'sgd',
  'hkd',
  'mxn',
  'krw',
]);
const escape = (s: string) => s.replace(/[$]/g, '\\$');
export const CURRENCY_SYMBOL = String.raw`(us\$|r\$|ca\$|au\$|c\$|a\$|[$€£¥₹₽₩])`;
export const CURRENCY_WORD = `(${byLength([...ISO_CODES, 'dollars?', 'euros?', 'pounds?', 'yen', 'rupees', 'francs', 'kr', 'cents?', 'céntimos'])})\\b`;
export const CURRENCY_BEFORE = `(${byLength([...ISO_CODES, 'kr'].map(escape))})`;

/** Duration units → canonical unit. */
export const UNITS: Record<string, string> = {};
const UNIT_FORMS: Array<[string, string[]]> = [
  ['s', ['second', 'seconds', 'sec', 'secs', 'segundos', 'sekunden', 'secondes']],
  ['min', ['minute', 'minutes', 'min', 'mins', 'minutos', 'minuten']],
  ['h', ['hour', 'hours', 'hr', 'hrs', 'horas', 'hora', 'stunde', 'stunden', 'heure', 'heures']],
  [
    'd',
    [
      'day',
      'days',
      'día',
      'días',
      'dia',
      'dias',
      'tag',
      'tage',
      'tagen',
      'jour',
      'jours',
      'werktag',
      'werktage',
      'werktagen',
    ],
  ],
  ['w', ['week', 'weeks', 'semana', 'semanas', 'woche', 'wochen', 'semaine', 'semaines']],
  ['mo', ['month', 'months', 'mes', 'meses', 'monat', 'monate', 'monaten', 'mois']],
  ['y', ['year', 'years', 'año', 'años', 'jahr', 'jahre', 'jahren', 'an', 'ans', 'année', 'années']],
];
for (const [unit, forms] of UNIT_FORMS) for (const form of forms) UNITS[form] = unit;
/** Units, longest first; `an` (French year) only after a digit, never after `a`. */
export const UNIT = `(${byLength(Object.keys(UNITS).filter((u) => u !== 'an'))})(?![\\p{L}])`;
/** Business (working) vs calendar qualifiers: before the unit (English) or after it (Spanish, French). */
export const BUSINESS = String.raw`(?:business|working|work|bank)`;
export const CALENDAR = String.raw`(?:calendar|consecutive)`;
export const BUSINESS_AFTER = String.raw`(?:hábiles|habiles|laborables|ouvrés|ouvrables|ouvrées)`;

/** Rate units (`per day`, `/hour`, `a night`) → canonical unit. */
export const RATE_UNITS: Record<string, string> = {
  hour: 'h',
  hr: 'h',
  h: 'h',
  day: 'd',
  night: 'd',
  week: 'w',
  month: 'mo',
  mo: 'mo',
  year: 'y',
  yr: 'y',
  annum: 'y',
  person: 'person',
  guest: 'person',
  item: 'item',
  order: 'order',
  kg: 'kg',
  km: 'km',
  mile: 'mile',
  día: 'd',
  hora: 'h',
  mes: 'mo',
  año: 'y',
  tag: 'd',
  stunde: 'h',
  monat: 'mo',
  jahr: 'y',
  jour: 'd',
  heure: 'h',
  nuit: 'd',
  noche: 'd',
  nacht: 'd',
};
export const RATE = `\\s*(?:per|/|a|an|each|every|por|al|pro|je|par)\\s*(${byLength(Object.keys(RATE_UNITS))})(?![\\p{L}])`;

const MONTH_FORMS: string[][] = [
  ['january', 'jan', 'enero', 'januar', 'janvier', 'jänner'],
  ['february', 'feb', 'febrero', 'februar', 'février'],
  ['march', 'mar', 'marzo', 'märz', 'mars'],
  ['april', 'apr', 'abril', 'avril'],
  ['may', 'mayo', 'mai'],
  ['june', 'jun', 'junio', 'juni', 'juin'],
  ['july', 'jul', 'julio', 'juli', 'juillet'],
  ['august', 'aug', 'agosto', 'août'],
  ['september', 'sept', 'sep', 'septiembre', 'setiembre', 'septembre'],
  ['october', 'oct', 'octubre', 'oktober', 'octobre'],
  ['november', 'nov', 'noviembre', 'novembre'],
  ['december', 'dec', 'diciembre', 'dezember', 'décembre'],
];
export const MONTHS: Record<string, number> = {};
MONTH_FORMS.forEach((forms, i) => forms.forEach((f) => (MONTHS[f] = i + 1)));
export const MONTH = `(${byLength(Object.keys(MONTHS))})\\.?(?![\\p{L}])`;

const WEEKDAY_FORMS: string[][] = [
  ['monday', 'mon', 'lunes', 'montag', 'lundi'],
  ['tuesday', 'tues', 'tue', 'martes', 'dienstag', 'mardi'],
  ['wednesday', 'wed', 'miércoles', 'miercoles', 'mittwoch', 'mercredi'],
  ['thursday', 'thurs', 'thur', 'thu', 'jueves', 'donnerstag', 'jeudi'],
  ['friday', 'fri', 'viernes', 'freitag', 'vendredi'],
  ['saturday', 'sat', 'sábado', 'sabado', 'sábados', 'samstag', 'samedi'],
  ['sunday', 'sun', 'domingo', 'domingos', 'sonntag', 'dimanche'],
];
export const WEEKDAYS: Record<string, number> = {};
WEEKDAY_FORMS.forEach((forms, i) =>
  forms.forEach((f) => {
    WEEKDAYS[f] = i;
    if (f.length > 3 && !f.endsWith('s')) WEEKDAYS[`${f}s`] = i;
  }),
);
// `sat`/`sun` alone are words ("sat down", "the sun"): they count only before a range dash or a dot.
export const WEEKDAY = `(${byLength(Object.keys(WEEKDAYS).filter((d) => d !== 'sat' && d !== 'sun'))}|sat(?=[.–—-])|sun(?=[.–—-]))\\.?(?![\\p{L}])`;
export const RANGE_JOIN = String.raw`(?:–|—|-|to|through|thru|until|till|a|al|hasta|bis|au|à)`;
