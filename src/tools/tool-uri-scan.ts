/**
 * Absolute URIs in tool output text (interface §4.6 rule 10: "an absolute URI in any string field is rejected
 * unless the field is explicitly linkable …"). Pure. The text is first NFKC-normalized, so fullwidth or other
 * compatibility spellings (`ｈｔｔｐｓ：／／`) are found too. A match is, case-insensitively, anywhere in the text:
 * - any syntactic scheme followed by two slashes or backslashes (`x-app://`, `https:\\`, `ftp:/\`): the
 *   hierarchical form of every scheme, known or not;
 * - a known scheme followed directly by a non-space character (`https:evil.com`, `https:/evil.com`, which WHATWG
 *   URL parses as `https://evil.com/`; `javascript:alert(1)`, `data:text/html,…`, `mailto:a@b.c`, `tel:+1…`,
 *   `file:/etc/passwd`, `urn:isbn:…`). `Note: …` or `Re: …` are not URIs (no known scheme, or a space follows).
 * A scheme must not continue a word (`T10:30` inside a timestamp is not `t10:`). Scheme-relative references
 * (`//host/path`) and bare domains (`www.example.com`) are not absolute URIs and are not matched.
 */

const KNOWN_SCHEMES =
  `http https ftp ftps sftp ws wss file data javascript vbscript mailto tel sms callto blob about
  ssh git svn smb cifs nfs ldap ldaps gopher dict jar intent market itms news nntp irc ircs magnet s3 gs urn
  chrome view-source feed telnet rtsp rtmp sip sips xmpp webcal content android-app ms-settings`
    .trim()
    .split(/\s+/)
    .map((scheme) => scheme.replace(/[.+-]/g, '\\$&'))
    .join('|');

const SCHEME_START = '(?<![A-Za-z0-9+.-])';
const ABSOLUTE_URI = new RegExp(
  `${SCHEME_START}(?:[A-Za-z][A-Za-z0-9+.-]{0,31}:[\\/\\\\]{2}|(?:${KNOWN_SCHEMES}):(?=\\S))`,
  'gi',
);

/** Offsets (into the NFKC-normalized text) of every absolute URI start. */
export function findAbsoluteUris(text: string): number[] {
  const normalized = text.normalize('NFKC');
  return [...normalized.matchAll(ABSOLUTE_URI)].map((match) => match.index ?? 0);
}

export function containsAbsoluteUri(text: string): boolean {
  ABSOLUTE_URI.lastIndex = 0;
  return ABSOLUTE_URI.test(text.normalize('NFKC'));
}
