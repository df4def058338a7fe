/**
 * Links inside free text (ARCHITECTURE invariant 5: only public http/https URLs leave the service, in source links,
 * answer text, excerpts, context packages and tool output alike). One policy: every URL found is judged by
 * `unsafeLinkReason` (commands/replies/source-links.ts), the same function that filters `source_links`, which parses
 * with the WHATWG URL parser (`new URL()`, what browsers implement).
 *
 * Pure. The text is read the way a browser might render it: Unicode NFKC (fullwidth `ｈｔｔｐ：／／`), invisible and
 * bidi-control characters removed (`ht\u200Btp://`), HTML character references decoded once, named ones included
 * (`&colon;`, `&Tab;`, `&NewLine;`, `&#58;`), and a percent-encoded separator (`http%3A%2F%2F`) recognized. A
 * candidate is judged with tabs and newlines removed, as a browser removes them inside a URL. In that view:
 * - the value of a URL attribute (`href`, `src`, `action`, `formaction`, `poster`, `background`, `cite`, `ping`,
 *   `xlink:href`, quoted) and a markdown `<…>` destination are parsed whole: with a scheme or a leading `//`/`\\`
 *   they are judged, a relative path (the page's own) is not a link;
 * - a special scheme (`http`, `https`, `ws`, `wss`, `ftp`, any case, tabs and newlines between its letters and its
 *   slashes) followed by a non-space, with or without slashes: `http:0x7f000001` and `https:/host` are read as
 *   `http(s)://…`, as a browser does;
 * - any other scheme followed by `//` (or `\\`, or `%2F%2F`);
 * - a scheme that is never a public link (`javascript:`, `vbscript:`, `data:`, `file:`, `blob:`, `about:`, `jar:`,
 *   `intent:`, `mailto:`, `tel:`…, any case, tabs or newlines between its letters) followed by a non-space
 *   (`javascript:` and `vbscript:` also after tabs or newlines): withheld as `scheme`;
 * - a scheme-relative `//host`, `\\host`, `/\host` (the page's scheme is added): judged as `http:` + it;
 * - a schemeless address: `www.…`, `localhost…`, an IPv4 or bracketed IPv6 literal, a dotted name with a port or
 *   path (`metadata.google.internal/computeMetadata`, `intranet.acme.corp:8080`), or a bare dotted name under a
 *   top-level domain (ICANN section of the Public Suffix List, tldts) or an internal suffix (`wiki.corp`): judged as
 *   `http://` + candidate. "file.txt", "e.g.", "node.js" and "v1.2" end in no top-level domain: prose, not links.
 *   A bare public name (`evil-example.com/login`) is a public link and stays: the link policy withholds
 *   non-public links; whether a claim may state that URL is the grounding check's question.
 * A withheld candidate is replaced by WITHHELD_LINK_MARKER. When nothing is withheld the text comes back unchanged
 * (byte for byte); when something is, the normalized view with the markers is returned, so no encoding of the
 * withheld URL survives next to the marker. Every pattern is linear-time (invariant 11).
 *
 * What it cannot do: judge a public-looking name that resolves to a private address (no DNS), or a URL spelled
 * out in words ("h t t p colon slash slash …").
 */
import { decodeHTML } from 'entities';
import { parse as parseDomain } from 'tldts';
import { unsafeLinkReason } from '../commands/replies/source-links';

export const WITHHELD_LINK_MARKER = '[link withheld]';

export interface LinkScan {
  /** The text to send: unchanged when nothing was withheld. */
  text: string;
  /** The reason of each withheld link, in order (empty when none). */
  withheld: string[];
}

// Zero-width, soft hyphen, word joiner, BOM, bidi controls, interlinear annotation, Mongolian vowel separator.
const INVISIBLE =
  /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]|\u034F|\u115F|\u1160|\u17B4|\u17B5/gu;
const NEVER_PUBLIC_SCHEMES = words(
  'javascript vbscript data file blob about jar intent mailto tel sms callto view-source chrome ms-settings filesystem',
);
/** Schemes that run script: a tab or newline after their colon is removed by a browser, so it still is one. */
const SCRIPT_SCHEMES = words('javascript vbscript');
/** WHATWG special schemes: `http:host` and `http:/host` mean `http://host`. */
const SPECIAL_SCHEMES = words('http https ws wss ftp');
const INTERNAL_TLDS =
  'local|localdomain|internal|intranet|private|corp|home|lan|arpa|svc|localhost|onion|test|invalid';
/** Browsers remove ASCII tab, LF and CR anywhere inside a URL. */
const GAP = '[\\t\\n\\r]*';
const SLASH = '(?:[/\\\\]|%2[Ff]|%5[Cc])';
const COLON = '(?::|%3[Aa])';
const TAIL = `[^\\s<>"'\`]*`;
const LABEL = '[A-Za-z0-9-]{1,63}';
/** A scheme name as a browser reads it: any case, tabs and newlines between its letters. */
const spelled = (name: string): string => [...name].map((char) => char.replace(/[.+-]/, '\\$&')).join(GAP);
const CANDIDATE = new RegExp(
  [
    // A special scheme with any (or no) slashes, tabs and newlines inside: `http:0x7f000001`, `ht\ttp:\n//`.
    `(?<![A-Za-z0-9+.-])(?:${SPECIAL_SCHEMES.map(spelled).join('|')})${GAP}${COLON}(?:(?:${GAP}${SLASH})+${GAP})?(?=[^\\s<>"'\`])${TAIL}`,
    // Any other scheme followed by // (or \\, or %2F%2F).
    `(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}${COLON}${SLASH}{2}${TAIL}`,
    // A script scheme, tabs and newlines inside and after its colon: `java\tscript:`, `JaVaScRiPt:\nalert(1)`.
    `(?<![A-Za-z0-9+.-])(?:${SCRIPT_SCHEMES.map(spelled).join('|')})${GAP}${COLON}${GAP}(?=\\S)${TAIL}`,
    // Any other never-public scheme followed by a non-space.
    `(?<![A-Za-z0-9+.-])(?:${NEVER_PUBLIC_SCHEMES.map(spelled).join('|')})${GAP}${COLON}(?=\\S)${TAIL}`,
    // Scheme-relative: //host, \\host, /\host (a browser adds the page's scheme).
    `(?<![A-Za-z0-9+.:/\\\\%-])${SLASH}{2}(?=[A-Za-z0-9[])${TAIL}`,
    // www.…, localhost…
    `(?<![A-Za-z0-9.@-])(?:www\\.[A-Za-z0-9-]|localhost\\b)${TAIL}`,
    // A dotted name or number, with an optional port and path (which bare names count is decided in code).
    `(?<![A-Za-z0-9.@/-])${LABEL}(?:\\.${LABEL})+(?::\\d{1,5})?(?:/${TAIL})?`,
    // [IPv6] literal
    `\\[[0-9A-Fa-f:.]{2,45}\\](?::\\d{1,5})?(?:/${TAIL})?`,
  ].join('|'),
  'gi',
);
/** An HTML attribute that holds a URL, and a markdown `<…>` link destination: what a browser parses whole. */
const URL_ATTRIBUTE =
  /(?<![\w:-])(?:href|src|action|formaction|poster|background|cite|ping|xlink:href)\s*=\s*(?:"([^"]{0,8192})"|'([^']{0,8192})')|\]\(\s*<([^<>\n]{0,8192})>/gi;
/** Cheap pre-check: a text without any of these cannot hold a candidate. */
const MAYBE = /[:.%&[/\\]|localhost/i;
// eslint-disable-next-line no-control-regex -- the printable ASCII range is the point
const NON_ASCII = /[^\x00-\x7F]/;

const TRAILING_CHARS = new Set([...'.,;:!?)]}\'"»”’']);

/**
 * Length of the run of sentence punctuation at the end of a candidate. A loop from the end: the former
 * `/[…]+$/` retried from every punctuation character of a long inner run (quadratic on `http://a.....x`).
 */
function trailingLength(match: string): number {
  let at = match.length;
  while (at > 0 && TRAILING_CHARS.has(match[at - 1]!)) at--;
  return match.length - at;
}
const NEVER_PUBLIC_SCHEME = new RegExp(`^(?:${NEVER_PUBLIC_SCHEMES.join('|')})$`, 'i');
const SPECIAL_SCHEME = new RegExp(`^(?:${SPECIAL_SCHEMES.join('|')})$`, 'i');
const INTERNAL_TLD = new RegExp(`\\.(?:${INTERNAL_TLDS})$`, 'i');
// eslint-disable-next-line no-control-regex -- a browser strips C0 controls and spaces around a URL
const URL_EDGES = /^[\x00-\x20]+|[\x00-\x20]+$/g;

function words(list: string): string[] {
  return list.trim().split(/\s+/);
}

/** The client's view of a text: NFKC, invisible characters removed, HTML character references decoded. */
export function linkView(text: string): string {
  let view = text.normalize('NFKC').replace(INVISIBLE, '');
  if (view.includes('&')) view = decodeHTML(view).normalize('NFKC').replace(INVISIBLE, '');
  return view;
}

function decodePercent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%3a/gi, ':').replace(/%2f/gi, '/').replace(/%5c/gi, '\\');
  }
}

/** A link candidate as a browser would read it: the absolute URL it makes, and whether `http://` was added. */
interface BrowserUrl {
  url: string;
  schemeless: boolean;
}

/**
 * The absolute URL a browser makes of a candidate, or null when it is no link. `bare` is a candidate found in prose
 * without a scheme or slashes: read as `http://` + it when it ends in a top-level or internal domain.
 */
function browserUrl(raw: string, bare: boolean): BrowserUrl | null {
  const candidate = decodePercent(raw).replace(/[\t\n\r]/g, '');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]{0,31}):/.exec(candidate);
  if (scheme && (NEVER_PUBLIC_SCHEME.test(scheme[1]) || SPECIAL_SCHEME.test(scheme[1])))
    return { url: candidate, schemeless: false };
  if (scheme && /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]{2}/.test(candidate))
    return { url: candidate, schemeless: false };
  if (/^[/\\]{2}/.test(candidate)) return { url: `http:${candidate}`, schemeless: false };
  // A dotted number that is not a four-part IPv4 address (a version "1.2", a ratio "0.5/1") is no link.
  const host = /^[^:/?#]*/.exec(candidate)?.[0] ?? '';
  if (/^[\d.]+$/.test(host) && !/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) return null;
  // A bare dotted name ("file.txt", "e.g.") is a link only under a real top-level domain or an internal one.
  if (bare && candidate === host && !/^[\d.]+$/.test(host)) {
    if (!INTERNAL_TLD.test(host) && !parseDomain(host).isIcann) return null;
  }
  return { url: `http://${candidate}`, schemeless: true };
}

/** Why a URL as a browser reads it must not leave, or null when it is a public http(s) URL (or no URL at all). */
function linkReason({ url, schemeless }: BrowserUrl): string | null {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]{0,31}):/.exec(url);
  if (scheme && NEVER_PUBLIC_SCHEME.test(scheme[1])) return 'scheme';
  const reason = unsafeLinkReason(url);
  return schemeless && reason === 'unparseable' ? null : reason;
}

/** A URL attribute's value parsed whole, as a browser does; a relative path (the page's own) is no link. */
function attributeUrl(value: string): BrowserUrl | null {
  const url = value.replace(URL_EDGES, '').replace(/[\t\n\r]/g, '');
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url) || /^[/\\]{2}/.test(url)) return browserUrl(url, false);
  return null;
}

const count = (text: string, char: string): number => text.split(char).length - 1;

/** A candidate match without the punctuation that ends the sentence around it. */
function splitTrailing(match: string): [core: string, trailing: string] {
  let end = match.length - trailingLength(match);
  // A closing parenthesis that closes one opened inside the URL belongs to it (`…/Foo_(bar)`, `alert(1)`).
  let open = count(match.slice(0, end), '(') - count(match.slice(0, end), ')');
  while (match[end] === ')' && open > 0) {
    end += 1;
    open -= 1;
  }
  return [match.slice(0, end), match.slice(end)];
}

/** A link found in a text: as written in the text's browser view, and as the browser would read it. */
export interface FoundLink {
  /** The candidate in the normalized view (see linkView). */
  text: string;
  /** The absolute URL a browser makes of it (before `new URL()` normalizes it). */
  url: string;
  /** Why it must not leave (unsafeLinkReason's reason), or null when it is a public http(s) URL. */
  reason: string | null;
}

/** Every candidate of `text`, in the order the two passes meet them; `replace` says which to replace by the marker. */
function scan(text: string, replace: (link: FoundLink) => boolean): string {
  return linkView(text)
    .replace(URL_ATTRIBUTE, (whole: string, ...groups: unknown[]) => {
      const value = [groups[0], groups[1], groups[2]].find((group) => typeof group === 'string') as string;
      const url = attributeUrl(value);
      if (url === null || !replace({ text: value, url: url.url, reason: linkReason(url) })) return whole;
      return whole.replace(value, WITHHELD_LINK_MARKER);
    })
    .replace(CANDIDATE, (match: string) => {
      const [core, trailing] = splitTrailing(match);
      const url = core === '' ? null : browserUrl(core, !/[:/\\%]/.test(core));
      if (url === null || !replace({ text: core, url: url.url, reason: linkReason(url) })) return match;
      return `${WITHHELD_LINK_MARKER}${trailing}`;
    });
}

/**
 * Every link a browser would find in `text`, public or not, each once: for checks that compare the links of two
 * texts (the figure check's URLs). A relative path in an attribute is not listed.
 */
export function findLinks(text: string): FoundLink[] {
  if (!MAYBE.test(text) && !NON_ASCII.test(text)) return [];
  const links: FoundLink[] = [];
  scan(text, (link) => {
    links.push(link);
    return true; // replaced, so an attribute's value is not found again by the second pass
  });
  return links;
}

/** Withholds every non-public link of a text (see the file comment). */
export function withholdUnsafeLinks(text: string): LinkScan {
  if (!MAYBE.test(text) && !NON_ASCII.test(text)) return { text, withheld: [] };
  const withheld: string[] = [];
  const redacted = scan(text, ({ reason }) => {
    if (reason !== null) withheld.push(reason);
    return reason !== null;
  });
  return withheld.length === 0 ? { text, withheld } : { text: redacted, withheld };
}

/** The text with non-public links withheld (see withholdUnsafeLinks). */
export const publicLinksOnly = (text: string): string => withholdUnsafeLinks(text).text;
