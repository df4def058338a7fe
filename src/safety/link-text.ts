/**
 * Links inside free text (ARCHITECTURE invariant 5: only public http/https URLs leave the service, in source links,
 * answer text, excerpts, context packages and tool output alike). One policy: every URL found is judged by
 * `unsafeLinkReason` (commands/replies/source-links.ts), the same function that filters `source_links`.
 *
 * Pure. The text is read the way a client might render it: Unicode NFKC (fullwidth `ｈｔｔｐ：／／`), invisible and
 * bidi-control characters removed (`ht\u200Btp://`), HTML character references decoded (`javascript&#58;`), and a
 * percent-encoded scheme separator (`http%3A%2F%2F`) recognized. In that view a candidate is:
 * - a scheme followed by `//` (or `\\`, or `%2F%2F`): any hierarchical URL, known scheme or not;
 * - a scheme that is never a public link followed by a non-space (`javascript:`, `data:`, `file:`, `vbscript:`,
 *   `blob:`, `about:`, `jar:`, `intent:`, `mailto:`…): withheld as `scheme`;
 * - a schemeless address: `www.…`, `localhost…`, an IPv4 or bracketed IPv6 literal, or a dotted host name with a
 *   port or path (`metadata.google.internal/computeMetadata`, `intranet.acme.corp:8080`), or a dotted name under an
 *   internal suffix (`wiki.corp`); judged as `http://` + candidate.
 * A withheld candidate is replaced by WITHHELD_LINK_MARKER. When nothing is withheld the text comes back unchanged
 * (byte for byte); when something is, the normalized view with the markers is returned, so no encoding of the
 * withheld URL survives next to the marker.
 *
 * What it cannot do: judge a public-looking name that resolves to a private address (no DNS), or a URL spelled
 * out in words ("h t t p colon slash slash …").
 */
import { decodeHTML } from 'entities';
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
const NEVER_PUBLIC_SCHEMES =
  'javascript|vbscript|data|file|blob|about|jar|intent|mailto|tel|sms|callto|view-source|chrome|ms-settings|filesystem';
const INTERNAL_TLDS =
  'local|localdomain|internal|intranet|private|corp|home|lan|arpa|svc|localhost|onion|test|invalid';
const TAIL = `[^\\s<>"'\`]*`;
const CANDIDATE = new RegExp(
  [
    // scheme://… (also \\ and percent-encoded separators)
    `(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}(?::|%3[Aa])(?:[/\\\\]|%2[Ff]|%5[Cc]){2}${TAIL}`,
    // never-public schemes without slashes
    `(?<![A-Za-z0-9+.-])(?:${NEVER_PUBLIC_SCHEMES})(?::|%3[Aa]|&colon;)(?=\\S)${TAIL}`,
    // www.…, localhost…
    `(?<![A-Za-z0-9.@-])(?:www\\.[A-Za-z0-9-]|localhost\\b)${TAIL}`,
    // IPv4 literal (with optional port/path)
    `(?<![A-Za-z0-9.@-])\\d{1,3}(?:\\.\\d{1,3}){3}(?::\\d{1,5})?(?:/${TAIL})?(?![\\d.]*\\d)`,
    // [IPv6] literal
    `\\[[0-9A-Fa-f:.]{2,45}\\](?::\\d{1,5})?(?:/${TAIL})?`,
    // dotted host with a port or a path
    `(?<![A-Za-z0-9.@/-])[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63})+(?::\\d{1,5}(?:/${TAIL})?|/${TAIL})`,
    // dotted host under an internal suffix
    `(?<![A-Za-z0-9.@/-])[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63})*\\.(?:${INTERNAL_TLDS})\\b`,
  ].join('|'),
  'g',
);
/** Cheap pre-check: a text without any of these cannot hold a candidate. */
const MAYBE = /[:.%&[]|localhost/i;
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
const NEVER_PUBLIC_SCHEME = new RegExp(`^(?:${NEVER_PUBLIC_SCHEMES})$`, 'i');

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

/** Why the URL candidate must not leave, or null when it is a public http(s) URL (or not a URL at all). */
function candidateReason(raw: string): string | null {
  const candidate = decodePercent(raw).replace(/&colon;/gi, ':');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]{0,31}):/.exec(candidate);
  if (scheme && NEVER_PUBLIC_SCHEME.test(scheme[1])) return 'scheme';
  if (scheme && /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]{2}/.test(candidate)) return unsafeLinkReason(candidate);
  // A dotted number that is not a four-part IPv4 address (a version "1.2", a ratio "0.5/1") is no link.
  const host = /^[^:/?#]*/.exec(candidate)?.[0] ?? '';
  if (/^[\d.]+$/.test(host) && !/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) return null;
  // Schemeless: judged as the http URL a client would make of it.
  const reason = unsafeLinkReason(`http://${candidate}`);
  return reason === 'unparseable' ? null : reason;
}

const count = (text: string, char: string): number => text.split(char).length - 1;

/** Withholds every non-public link of a text (see the file comment). */
export function withholdUnsafeLinks(text: string): LinkScan {
  if (!MAYBE.test(text) && !NON_ASCII.test(text)) return { text, withheld: [] };
  const view = linkView(text);
  const withheld: string[] = [];
  const redacted = view.replace(CANDIDATE, (match: string) => {
    let end = match.length - trailingLength(match);
    // A closing parenthesis that closes one opened inside the URL belongs to it (`…/Foo_(bar)`, `alert(1)`).
    let open = count(match.slice(0, end), '(') - count(match.slice(0, end), ')');
    while (match[end] === ')' && open > 0) {
      end += 1;
      open -= 1;
    }
    const core = match.slice(0, end);
    const trailing = match.slice(end);
    if (core === '') return match;
    const reason = candidateReason(core);
    if (reason === null) return match;
    withheld.push(reason);
    return `${WITHHELD_LINK_MARKER}${trailing}`;
  });
  return withheld.length === 0 ? { text, withheld } : { text: redacted, withheld };
}

/** The text with non-public links withheld (see withholdUnsafeLinks). */
export const publicLinksOnly = (text: string): string => withholdUnsafeLinks(text).text;
