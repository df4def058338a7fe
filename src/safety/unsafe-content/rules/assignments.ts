import { forEachMatch } from './finding';

/** One `key → value` pair found in text: config lines, JSON/YAML members, XML elements/attributes, calls. */
export interface Assignment {
  key: string;
  value: string;
  /** UTF-16 offset of the value (inside the quotes when quoted). */
  valueStart: number;
  quoted: boolean;
  /** `spaced` = a two-token line (`password "x"`, `hostname smtp.example.com`), the weakest form. */
  form: 'pair' | 'call' | 'element' | 'spaced' | 'netrc';
  /** The rest of the line after the value (after the closing quote when quoted). */
  after: string;
}

const KEY = String.raw`[A-Za-z_][A-Za-z0-9_.\-]{0,63}`;
const QUOTED = String.raw`(["'\x60])((?:(?!\4)[^\n\\]|\\.){0,500})\4`;
const UNQUOTED = String.raw`([^\s,;'"\x60<>)}\]]{1,300})`;

/** `key = value`, `key: value`, `"key": "value"`, `key => value`, `$key = 'value'`, `export KEY=value`, attrs. */
const PAIR = new RegExp(
  String.raw`(?<![\w$.\-/])\$?(["']?)(${KEY})\1[ \t]*(=>|:=|=(?!=)|:(?![:/\\]))[ \t]*(?:${QUOTED}|${UNQUOTED})`,
  'g',
);
/** `define('KEY', 'value')`, `setdefault("KEY", "value")`, `config.set('key', 'value')`. */
const CALL = new RegExp(String.raw`\(\s*(["'])(${KEY})\1\s*,\s*(["'])((?:(?!\3)[^\n\\]|\\.){0,500})\3`, 'g');
/** `<Pass>value</Pass>`. */
const ELEMENT = /<([A-Za-z_][\w.:-]{0,63})(?:\s[^<>\n]*)?>([^<>\n]{1,500})<\/\1>/g;
/** A line of exactly `key value` or `key "value"`. */
const SPACED = new RegExp(
  String.raw`^[ \t]*(${KEY})[ \t]+(?:(["'])((?:(?!\2)[^\n]){1,500})\2|([^\s"']+))[ \t]*$`,
  'gm',
);
/** `.netrc`: `machine host login user password secret` (possibly on one line). */
const NETRC_LINE = /^[ \t]*(?:machine[ \t]+\S+|default)\b[^\n]*$/gm;
const NETRC_TOKEN = /\b(login|password|account)[ \t]+(\S+)/g;

/** The last text's assignments: the secret-assignment and credential-context rules read the same text in turn. */
let cached: { text: string; found: readonly Assignment[] } | null = null;

export function extractAssignments(text: string): readonly Assignment[] {
  if (cached?.text !== text) cached = { text, found: findAssignments(text) };
  return cached.found;
}

function findAssignments(text: string): Assignment[] {
  const found: Assignment[] = [];
  const re = new RegExp(PAIR.source, 'g');
  let match: RegExpExecArray | null;
  while ((match = re.exec(text)) !== null) {
    const key = match[2];
    const quotedValue = match[5];
    const value = quotedValue ?? match[6];
    if (value === undefined) {
      re.lastIndex = match.index + match[0].length;
      continue;
    }
    const quoted = quotedValue !== undefined;
    const valueStart = match.index + match[0].length - value.length - (quoted ? 1 : 0);
    found.push({
      key,
      value,
      valueStart,
      quoted,
      form: 'pair',
      after: restOfLine(text, match.index + match[0].length),
    });
    // Rescan from the value when it may hold another pair (`Note: password: hunter2`, `a=b:c`).
    re.lastIndex = quoted || /[:=]/.test(value) ? valueStart : match.index + match[0].length;
  }
  forEachMatch(text, CALL, (m) => {
    const valueStart = m.index + m[0].length - 1 - m[4].length;
    found.push({
      key: m[2],
      value: m[4],
      valueStart,
      quoted: true,
      form: 'call',
      after: restOfLine(text, m.index + m[0].length),
    });
  });
  if (text.includes('</')) {
    forEachMatch(text, ELEMENT, (m) => {
      const valueStart = m.index + m[0].indexOf('>') + 1;
      found.push({ key: m[1], value: m[2], valueStart, quoted: false, form: 'element', after: '' });
    });
  }
  forEachMatch(text, SPACED, (m) => {
    const quoted = m[3] !== undefined;
    const value = m[3] ?? m[4];
    const valueStart = m.index + m[0].trimEnd().length - value.length - (quoted ? 1 : 0);
    found.push({ key: m[1], value, valueStart, quoted, form: 'spaced', after: '' });
  });
  if (/\bmachine\b|^[ \t]*default\b/m.test(text)) {
    forEachMatch(text, NETRC_LINE, (line) => {
      forEachMatch(line[0], NETRC_TOKEN, (m) => {
        const valueStart = line.index + m.index + m[0].length - m[2].length;
        found.push({ key: m[1], value: m[2], valueStart, quoted: false, form: 'netrc', after: '' });
      });
    });
  }
  return found;
}

function restOfLine(text: string, from: number): string {
  const end = text.indexOf('\n', from);
  return text.slice(from, end < 0 ? text.length : end);
}

/** `formSubmitURL` → [form, submit, url]; `AWS_ACCESS_KEY_ID` → [aws, access, key, id]; `$dbpasswd` → [dbpasswd]. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}
