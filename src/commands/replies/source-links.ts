/**
 * Which source links may leave the service in a reply (ARCHITECTURE invariant 5 "Links"; interface §4.6 rule 7).
 * Pure: no DNS or network access. Each URL is parsed with WHATWG `URL`, which trims surrounding whitespace,
 * drops tabs/newlines, treats `\` as `/`, percent-decodes and IDNA-maps the host (fullwidth forms, `。` dots),
 * and rewrites every IPv4 spelling (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`) to dotted decimal. The
 * checks below run on that normalized form, so one rule covers every encoding. A URL is withheld with a
 * snake_case reason when:
 * - `unparseable`  not a string, or `new URL()` throws;
 * - `scheme`       the scheme is not `http:`/`https:` (file, data, javascript, blob, ftp, s3, gs, …);
 * - `credentials`  it has a user or password, or a query/fragment parameter that carries a credential
 *                  (presigned storage URLs `X-Amz-Signature`, `X-Goog-Signature`, Azure SAS `sig`, `token`, …);
 * - `host_missing` / `host_invalid`  no host, or an empty label (`a..b`);
 * - IP hosts must be ipaddr.js range `unicast` (IPv6 also inside global unicast 2000::/3), else:
 *   `loopback`, `private` (RFC 1918, CGNAT 100.64/10, IPv6 ULA fc00::/7 and site-local, local-use NAT64),
 *   `link_local`, `unspecified`, `broadcast`, `multicast`, `reserved` (everything else that is not unicast);
 *   IPv6 that embeds an IPv4 (mapped `::ffff:`, RFC 6145, compat `::a.b.c.d`, NAT64 64:ff9b::/96, 6to4,
 *   Teredo) yields the embedded address's reason, and `ip_literal_encoding` when that address is public
 *   (an IPv4 dressed as IPv6 is never needed in a citation);
 * - `metadata`     cloud metadata endpoints: 169.254.169.254, 169.254.170.2 (ECS), 100.100.100.200 (Alibaba),
 *                  fd00:ec2::254 (AWS IPv6), `metadata.google.internal`, `metadata`, `instance-data(.ec2.internal)`;
 * - `loopback`     names `localhost` and `*.localhost` (RFC 6761); trailing dots are ignored for all names;
 * - `internal_name` single-label names (`intranet`), and names under a non-public suffix: `local`,
 *   `localdomain`, `internal`, `intranet`, `private`, `corp`, `home`, `lan`, `arpa` (incl. `home.arpa`),
 *   `svc` (Kubernetes, `*.svc.cluster.local` is caught by `local`), `onion`, `alt`, and the RFC 2606 TLDs
 *   `test`, `invalid`, `example` (the public domains `example.com/.org/.net` are allowed);
 * - `internal_name` also: a name whose suffix is not on the Public Suffix List (tldts), e.g. `kubernetes.default`,
 *   `service.namespace`, `intranet.acme`: it cannot be a public site;
 * - `wildcard_dns` names under services that resolve any name to an IP spelled inside it, in any spelling
 *   (`nip.io`, `sslip.io`, `xip.io`, `nip.direct`) or always to loopback (`localtest.me`, `lvh.me`, `vcap.me`,
 *   `lacolhost.com`, `localhost.direct`, `traefik.me`): never a citation source;
 * - a name that spells a non-public IPv4 (`127.0.0.1.example.com`, `10-0-0-1.example.net`) gets that IP's reason.
 * Ports are allowed. Names that merely resolve to private IPs cannot be detected without DNS.
 *
 * `selectSourceLinks` keeps safe links in input order, deduplicated by the normalized href without its
 * fragment (which is also the returned `url`, so `https://a.com:443/x#y` becomes `https://a.com/x`), at most
 * MAX_SOURCE_LINKS. Labels: whitespace collapsed, control and bidi-override characters removed, at most
 * SOURCE_LINK_LABEL_MAX UTF-16 characters (never splitting a surrogate pair), cut at a word boundary with `…`;
 * an empty label becomes the URL's host.
 */
import * as ipaddr from 'ipaddr.js';
import { parse as parseDomain } from 'tldts';

/** Maximum label length in characters (JS string length); longer labels are cut at a word and end with '…'. */
export const SOURCE_LINK_LABEL_MAX = 120;
/** Maximum number of source links returned in one reply. */
export const MAX_SOURCE_LINKS = 10;

export interface SourceLinkCandidate {
  label: string;
  url: string | null | undefined;
}

export interface SourceLink {
  label: string;
  url: string;
}

const words = (list: string): string[] => list.trim().split(/\s+/);
const INTERNAL_SUFFIXES = words(
  'local localdomain internal intranet private corp home lan arpa svc onion alt test invalid example',
);
const WILDCARD_DNS_DOMAINS = words(
  'nip.io sslip.io xip.io nip.direct localtest.me lvh.me vcap.me lacolhost.com localhost.direct traefik.me',
);
const METADATA_NAMES = new Set(
  words('metadata.google.internal metadata instance-data instance-data.ec2.internal'),
);
const METADATA_IPS = new Set(words('169.254.169.254 169.254.170.2 100.100.100.200 fd00:ec2:0:0:0:0:0:254'));
const CREDENTIAL_PARAMS = new Set(
  words(`x-amz-signature x-amz-credential x-amz-security-token x-goog-signature x-goog-credential sig signature
    token access_token refresh_token id_token client_secret api_key apikey api-key x-api-key password passwd pwd
    key secret secret_key access_key private_token auth_token auth authorization code jwt session sessionid sid
    credential credentials`),
);
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const RANGE_REASONS: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  carrierGradeNat: 'private',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
  linkLocal: 'link_local',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
};

function ipv4Reason(ip: ipaddr.IPv4): string | null {
  if (METADATA_IPS.has(ip.toString())) return 'metadata';
  const range = ip.range();
  return range === 'unicast' ? null : (RANGE_REASONS[range] ?? 'reserved');
}

const v4 = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);

function ipv6Reason(ip: ipaddr.IPv6): string | null {
  if (METADATA_IPS.has(ip.toNormalizedString())) return 'metadata';
  const p = ip.parts;
  const range = ip.range();
  let embedded: ipaddr.IPv4[] = [];
  if (
    range === 'ipv4Mapped' ||
    range === 'rfc6145' ||
    (range === 'unicast' && p.slice(0, 6).every((x) => x === 0))
  ) {
    embedded = [v4(p[6], p[7])];
  } else if (range === 'rfc6052') {
    if (p.slice(2, 6).some((x) => x !== 0)) return 'private'; // 64:ff9b:1::/48 local-use NAT64 (RFC 8215)
    embedded = [v4(p[6], p[7])];
  } else if (range === '6to4') {
    embedded = [v4(p[1], p[2])];
  } else if (range === 'teredo') {
    embedded = [v4(p[6] ^ 0xffff, p[7] ^ 0xffff), v4(p[2], p[3])];
  } else if (range !== 'unicast') {
    return RANGE_REASONS[range] ?? 'reserved';
  } else {
    return ip.match(GLOBAL_UNICAST_V6) ? null : 'reserved';
  }
  for (const address of embedded) {
    const reason = ipv4Reason(address);
    if (reason !== null) return reason;
  }
  return 'ip_literal_encoding';
}

function hostNameReason(hostname: string): string | null {
  const name = hostname.replace(/\.+$/, '');
  if (name === '') return 'host_missing';
  if (METADATA_NAMES.has(name)) return 'metadata';
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  const labels = name.split('.');
  if (labels.some((label) => label === '')) return 'host_invalid';
  if (labels.length < 2) return 'internal_name';
  if (INTERNAL_SUFFIXES.includes(labels[labels.length - 1])) return 'internal_name';
  // Wildcard-DNS services spell the target IP inside the name (127.0.0.1.nip.io, 10-0-0-1.sslip.io).
  for (const match of name.matchAll(/(?<![\d])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})(?![\d])/g)) {
    const spelled = match.slice(1, 5).join('.');
    if (ipaddr.IPv4.isValidFourPartDecimal(spelled)) {
      const reason = ipv4Reason(ipaddr.IPv4.parse(spelled));
      if (reason !== null) return reason;
    }
  }
  if (WILDCARD_DNS_DOMAINS.some((domain) => name === domain || name.endsWith(`.${domain}`)))
    return 'wildcard_dns';
  const domain = parseDomain(name, { allowPrivateDomains: true });
  if (!domain.isIcann && !domain.isPrivate) return 'internal_name';
  return null;
}

function hasCredentialParam(params: URLSearchParams): boolean {
  for (const key of params.keys()) if (CREDENTIAL_PARAMS.has(key.toLowerCase())) return true;
  return false;
}

/** Returns the reason a URL is withheld, or null when it is a public http(s) URL. */
export function unsafeLinkReason(url: string): string | null {
  if (typeof url !== 'string') return 'unparseable';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'unparseable';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'scheme';
  if (parsed.username !== '' || parsed.password !== '') return 'credentials';
  if (
    hasCredentialParam(parsed.searchParams) ||
    hasCredentialParam(new URLSearchParams(parsed.hash.slice(1)))
  ) {
    return 'credentials';
  }
  const host = parsed.hostname;
  if (host === '') return 'host_missing';
  if (host.startsWith('[')) {
    if (!ipaddr.IPv6.isValid(host.slice(1, -1))) return 'unparseable';
    return ipv6Reason(ipaddr.IPv6.parse(host.slice(1, -1)));
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return ipv4Reason(ipaddr.IPv4.parse(host));
  return hostNameReason(host);
}

function boundLabel(raw: unknown, host: string): string {
  const text = (typeof raw === 'string' ? raw : '')
    .replace(/\s+/gu, ' ')
    .replace(/[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  if (text === '') return host;
  if (text.length <= SOURCE_LINK_LABEL_MAX) return text;
  let cut = SOURCE_LINK_LABEL_MAX - 1;
  if (/[\uDC00-\uDFFF]/.test(text[cut])) cut -= 1; // do not split a surrogate pair
  const space = text.lastIndexOf(' ', cut);
  if (space >= SOURCE_LINK_LABEL_MAX / 2) cut = space;
  return `${text.slice(0, cut).trimEnd()}…`;
}

/** Safe links in input order, deduplicated by normalized URL (WHATWG href, fragment removed), at most MAX_SOURCE_LINKS, labels bounded. */
export function selectSourceLinks(candidates: readonly SourceLinkCandidate[]): SourceLink[] {
  const links: SourceLink[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (links.length >= MAX_SOURCE_LINKS) break;
    if (typeof candidate?.url !== 'string' || unsafeLinkReason(candidate.url) !== null) continue;
    const url = new URL(candidate.url);
    url.hash = '';
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    links.push({ label: boundLabel(candidate.label, url.host), url: url.href });
  }
  return links;
}
