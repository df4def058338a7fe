import type { ScanView } from './scan-views';

/**
 * A view with escapes decoded in place (issue 29: a GitHub token written as `\u0067\u0068\u0070…`, a Stripe key as
 * `%73%6B%5F…`, a GitLab token as `&#x67;&#x6c;…`, an OpenAI key as `\x73\x6b…`, a password as a C# byte array
 * `{ 0x64, 0x64, … }`). Each escape becomes the character it stands for (a byte array becomes a quoted string), so
 * `"value":"\u0067hp_…"` reads `"value":"ghp_…"` and the named rules see the token; every decoded character maps
 * back to its escape in the original. One regular expression of alternatives, each anchored on its own prefix and
 * bounded: linear.
 */
const ESCAPE =
  /\\u\{?([0-9A-Fa-f]{4})\}?|\\x([0-9A-Fa-f]{2})|%([0-9A-Fa-f]{2})|&#[xX]([0-9A-Fa-f]{1,6});|&#(\d{1,7});|&(amp|lt|gt|quot|apos|lowbar|hyphen|dash|period|colon|sol|equals|plus|num|excl);|\{[ \t]*((?:0[xX][0-9A-Fa-f]{2}[ \t]*,[ \t]*){3,255}0[xX][0-9A-Fa-f]{2})[ \t]*,?[ \t]*\}/g;

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  lowbar: '_',
  hyphen: '-',
  dash: '-',
  period: '.',
  colon: ':',
  sol: '/',
  equals: '=',
  plus: '+',
  num: '#',
  excl: '!',
};

function decode(match: RegExpExecArray): string | null {
  const [, unicode, hex, percent, entityHex, entityDecimal, named, bytes] = match;
  const code = (digits: string, radix: number): string | null => {
    const value = parseInt(digits, radix);
    return value > 0 && value <= 0x10ffff ? String.fromCodePoint(value) : null;
  };
  if (unicode !== undefined) return code(unicode, 16);
  if (hex !== undefined) return code(hex, 16);
  if (percent !== undefined) return code(percent, 16);
  if (entityHex !== undefined) return code(entityHex, 16);
  if (entityDecimal !== undefined) return code(entityDecimal, 10);
  if (named !== undefined) return NAMED[named] ?? null;
  if (bytes !== undefined) {
    const text = Buffer.from(bytes.replace(/0[xX]|[\s,]/g, ''), 'hex').toString('latin1');
    return `"${text}"`;
  }
  return null;
}

/** The view with escapes decoded, or null when the text has none. */
export function unescapedView(view: ScanView): ScanView | null {
  const { text } = view;
  if (!/[\\%&{]/.test(text)) return null;
  let out = '';
  const origin: number[] = [];
  let last = 0;
  let replaced = 0;
  for (const match of text.matchAll(ESCAPE)) {
    const decoded = decode(match);
    if (decoded === null) continue;
    out += text.slice(last, match.index);
    for (let i = last; i < match.index; i++) origin.push(view.origin[i]!);
    out += decoded;
    for (let i = 0; i < decoded.length; i++) origin.push(view.origin[match.index]!);
    last = match.index + match[0].length;
    replaced++;
  }
  if (replaced === 0) return null;
  out += text.slice(last);
  for (let i = last; i <= text.length; i++) origin.push(view.origin[i]!);
  return { text: out, origin };
}

/**
 * Markup inside a token removed (issue 29): markdown emphasis markers (`**ghp_ab**cd*ef*`), backslash escapes of
 * punctuation (`sk\_live\_…`), `<wbr>` tags and soft hyphens from copied HTML, ANSI colour sequences from a terminal
 * paste. Each alternative is anchored on its own prefix and bounded: linear.
 */
// eslint-disable-next-line no-control-regex -- ANSI escape sequences start with ESC (0x1B) by definition
const MARKUP = /\x1B\[[0-9;]{0,20}[A-Za-z]|<wbr\s{0,2}\/?>|&shy;|\*{1,3}|~~|\\([_*`~[\]#|.-])/g;

export function markupStrippedView(view: ScanView): ScanView | null {
  const { text } = view;
  // eslint-disable-next-line no-control-regex -- ESC (0x1B) starts an ANSI sequence
  if (!/[\x1B<*~\\&]/.test(text)) return null;
  let out = '';
  const origin: number[] = [];
  let last = 0;
  for (const match of text.matchAll(MARKUP)) {
    out += text.slice(last, match.index);
    for (let i = last; i < match.index; i++) origin.push(view.origin[i]!);
    const kept = match[1] ?? '';
    out += kept;
    for (let i = 0; i < kept.length; i++) origin.push(view.origin[match.index + 1]!);
    last = match.index + match[0].length;
  }
  if (last === 0) return null;
  out += text.slice(last);
  for (let i = last; i <= text.length; i++) origin.push(view.origin[i]!);
  return { text: out, origin };
}
