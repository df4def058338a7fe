import {
  MAX_SOURCE_LINKS,
  SOURCE_LINK_LABEL_MAX,
  selectSourceLinks,
  unsafeLinkReason,
  type SourceLinkCandidate,
} from '../../../src/commands/replies/source-links';

const HOSTILE: Array<[string, string]> = [
  // IPv4 loopback, however spelled (WHATWG normalizes all of these to 127.0.0.1)
  ['http://127.0.0.1/', 'loopback'],
  // Wildcard DNS in spellings no pattern catches, and names outside the Public Suffix List.
  ['http://7f000001.nip.io/', 'wildcard_dns'],
  ['http://a9fe-a9fe.sslip.io/', 'wildcard_dns'],
  ['http://anything.localtest.me/', 'wildcard_dns'],
  ['http://app.lvh.me:3000/', 'wildcard_dns'],
  ['http://kubernetes.default/', 'internal_name'],
  ['http://billing.payments-namespace/', 'internal_name'],
  ['http://wiki.acme/', 'internal_name'],
  ['https://clinic.example.com/faq?key=AIzaSyA-secret', 'credentials'],
  ['https://clinic.example.com/cb?code=4/0AfJ', 'credentials'],
  ['https://clinic.example.com/x?jwt=eyJhbGciOi', 'credentials'],
  ['https://clinic.example.com/x?session=abc', 'credentials'],
  ['http://2130706433/', 'loopback'],
  ['http://0x7f000001/', 'loopback'],
  ['http://0177.0.0.1/', 'loopback'],
  ['http://0x7f.1/', 'loopback'],
  ['http://0x7f.0.0.01/', 'loopback'],
  ['http://127.1/', 'loopback'],
  ['http://127.0.0.1./', 'loopback'],
  ['http://127.255.255.254:8080/admin', 'loopback'],
  ['http://127。0。0。1/', 'loopback'],
  ['http://%31%32%37.0.0.1/', 'loopback'],
  ['http:\\\\127.0.0.1', 'loopback'],
  [' http://127.0.0.1 ', 'loopback'],
  ['http://127.0.0\n.1/', 'loopback'],
  // private, shared and other non-unicast IPv4
  ['http://10.0.0.1/', 'private'],
  ['http://167772161/', 'private'],
  ['http://012.0.0.1/', 'private'],
  ['http://0xa.0.0.1/', 'private'],
  ['http://192.168.1.1/', 'private'],
  ['http://3232235777/', 'private'],
  ['http://0xc0.0xa8.1.1/', 'private'],
  ['http://0300.0250.0.1/', 'private'],
  ['http://172.16.5.4/', 'private'],
  ['http://100.64.0.1/', 'private'],
  ['http://0/', 'unspecified'],
  ['http://0.0.0.0/', 'unspecified'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://255.255.255.255/', 'broadcast'],
  ['http://192.0.2.10/', 'reserved'],
  ['http://240.0.0.1/', 'reserved'],
  ['http://169.254.1.1/', 'link_local'],
  // cloud metadata
  ['http://169.254.169.254/latest/meta-data', 'metadata'],
  ['http://0xa9fea9fe/', 'metadata'],
  ['http://2852039166/latest/meta-data/iam', 'metadata'],
  ['http://[::ffff:169.254.169.254]/', 'metadata'],
  ['http://[fd00:ec2::254]/', 'metadata'],
  ['http://100.100.100.200/latest/meta-data', 'metadata'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'metadata'],
  ['http://METADATA.google.internal./', 'metadata'],
  // IPv6 and IPv4 embedded in IPv6
  ['http://[::1]/', 'loopback'],
  ['http://[0:0:0:0:0:0:0:1]:8080/', 'loopback'],
  ['http://[::]/', 'unspecified'],
  ['http://[fe80::1]/', 'link_local'],
  ['http://[fc00::1]/', 'private'],
  ['http://[fd12:3456::1]/', 'private'],
  ['http://[ff02::1]/', 'multicast'],
  ['http://[2001:db8::1]/', 'reserved'],
  ['http://[::ffff:127.0.0.1]/', 'loopback'],
  ['http://[::ffff:7f00:1]/', 'loopback'],
  ['http://[0:0:0:0:0:ffff:10.0.0.1]/', 'private'],
  ['http://[::127.0.0.1]/', 'loopback'],
  ['http://[::ffff:0:192.168.0.1]/', 'private'],
  ['http://[64:ff9b::10.0.0.1]/', 'private'],
  ['http://[64:ff9b::7f00:1]/', 'loopback'],
  ['http://[64:ff9b:1::a00:1]/', 'private'],
  ['http://[2002:7f00:1::]/', 'loopback'],
  ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'reserved'], // Teredo, client 192.0.2.45 (TEST-NET-1)
  ['http://[2001:0:4136:e378:8000:0:80ff:fffe]/', 'loopback'], // Teredo, client 127.0.0.1
  ['http://[2001:0:4136:e378:8000:0:f7f7:f7f7]/', 'ip_literal_encoding'], // Teredo, client 8.8.8.8
  ['http://[::ffff:93.184.216.34]/', 'ip_literal_encoding'],
  // credentials
  ['https://user:pass@example.com/', 'credentials'],
  ['https://user@example.com', 'credentials'],
  ['https://:secret@example.com/', 'credentials'],
  ['https://bucket.s3.amazonaws.com/k?X-Amz-Credential=a&X-Amz-Signature=b', 'credentials'],
  ['https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sig=abc', 'credentials'],
  ['https://example.com/cb#access_token=abc', 'credentials'],
  // other schemes and internal storage
  ['file:///etc/passwd', 'scheme'],
  ['data:text/html,<script>alert(1)</script>', 'scheme'],
  ['javascript:alert(1)', 'scheme'],
  ['JavaScript:alert(1)//https://example.com', 'scheme'],
  ['s3://bucket/key', 'scheme'],
  ['gs://bucket/o', 'scheme'],
  ['ftp://ftp.example.com/pub/file.txt', 'scheme'],
  ['blob:https://example.com/550e8400-e29b-41d4-a716-446655440000', 'scheme'],
  ['ws://example.com/socket', 'scheme'],
  ['mailto:someone@example.com', 'scheme'],
  // internal names
  ['http://localhost/', 'loopback'],
  ['http://LOCALHOST./', 'loopback'],
  ['http://localhost../', 'loopback'],
  ['http://ｌｏｃａｌｈｏｓｔ:3000/', 'loopback'],
  ['http://foo.localhost/', 'loopback'],
  ['http://127.0.0.1.nip.io/', 'loopback'],
  ['http://10-0-0-1.sslip.io/', 'private'],
  ['http://intranet/', 'internal_name'],
  ['http://intranet./wiki', 'internal_name'],
  ['http://db.internal/', 'internal_name'],
  ['http://printer.local/', 'internal_name'],
  ['http://minio.storage.svc.cluster.local:9000/bucket/key', 'internal_name'],
  ['http://kubernetes.default.svc/', 'internal_name'],
  ['http://router.home.arpa/', 'internal_name'],
  ['http://nas.lan/', 'internal_name'],
  ['http://wiki.corp/', 'internal_name'],
  ['http://server.localdomain/', 'internal_name'],
  ['http://docs.test/', 'internal_name'],
  ['http://foo.invalid/', 'internal_name'],
  ['http://www.example/', 'internal_name'],
  ['http://abc.onion/', 'internal_name'],
  ['http://a..b.com/', 'host_invalid'],
  ['http://./', 'host_missing'],
  // unparseable
  ['', 'unparseable'],
  ['not a url', 'unparseable'],
  ['//example.com/path', 'unparseable'],
  ['https://', 'unparseable'],
  ['http://[fe80::1%25eth0]/', 'unparseable'],
  ['http://1.2.3.4.5/', 'unparseable'],
  ['http://exa mple.com/', 'unparseable'],
];

const PUBLIC: string[] = [
  'https://example.com',
  'https://example.com/',
  'http://example.org/docs?page=2&sort=asc',
  'https://www.example.net:8443/path/to/page.html#section',
  'http://93.184.216.34/',
  'https://8.8.8.8:443/dns',
  'https://[2606:4700::1111]/',
  'https://[2606:4700:4700::1111]:8080/x',
  'https://münchen.de/straße',
  'https://docs.github.com/en/rest?apiVersion=2022-11-28',
  'https://bucket.s3.amazonaws.com/public/report.pdf',
  'https://storage.googleapis.com/bucket/object.txt',
  'HTTPS://EXAMPLE.COM/UPPER',
  'https://localhost.example.com/',
  'https://10.example.com/',
  'https://user.github.io/docs/',
  'https://www.nhs.uk/conditions/',
  'https://clinic.co.uk/hours',
  'https://docs.example.dev/',
  'https://xn--mnchen-3ya.de/',
  'https://clinic.example.com/faq?page=2&lang=en',
];

describe('unsafeLinkReason', () => {
  it.each(HOSTILE)('withholds %j (%s)', (url, reason) => {
    expect(unsafeLinkReason(url)).toBe(reason);
  });

  it.each(PUBLIC)('allows public %j', (url) => {
    expect(unsafeLinkReason(url)).toBeNull();
  });

  it('treats non-string input as unparseable', () => {
    expect(unsafeLinkReason(null as unknown as string)).toBe('unparseable');
    expect(unsafeLinkReason(42 as unknown as string)).toBe('unparseable');
  });
});

describe('selectSourceLinks', () => {
  const link = (url: string | null | undefined, label = 'Doc'): SourceLinkCandidate => ({ label, url });

  it('keeps input order and normalizes the URL', () => {
    expect(
      selectSourceLinks([link('https://b.example.com/x', 'B'), link('HTTPS://A.EXAMPLE.COM:443/y', 'A')]),
    ).toEqual([
      { label: 'B', url: 'https://b.example.com/x' },
      { label: 'A', url: 'https://a.example.com/y' },
    ]);
  });

  it('deduplicates by normalized URL: fragment and default port do not make a new link', () => {
    const out = selectSourceLinks([
      link('https://example.com/page#intro', 'First'),
      link('https://example.com:443/page#details', 'Second'),
      link('https://example.com/page', 'Third'),
      link('https://EXAMPLE.com/page#', 'Fourth'),
    ]);
    expect(out).toEqual([{ label: 'First', url: 'https://example.com/page' }]);
  });

  it('skips null, undefined and non-string URLs', () => {
    const out = selectSourceLinks([
      link(null),
      link(undefined),
      { label: 'n', url: 7 as unknown as string },
      link('https://example.com/ok'),
    ]);
    expect(out).toEqual([{ label: 'Doc', url: 'https://example.com/ok' }]);
  });

  it('bounds long labels at a word boundary with an ellipsis', () => {
    const long = 'word '.repeat(60);
    const [out] = selectSourceLinks([link('https://example.com/', long)]);
    expect(out.label.length).toBeLessThanOrEqual(SOURCE_LINK_LABEL_MAX);
    expect(out.label.endsWith('…')).toBe(true);
    expect(out.label).toMatch(/^(word )*word…$/);
  });

  it('hard-cuts a label without spaces and never splits a surrogate pair', () => {
    const [plain] = selectSourceLinks([link('https://example.com/', 'x'.repeat(500))]);
    expect(plain.label).toBe(`${'x'.repeat(SOURCE_LINK_LABEL_MAX - 1)}…`);
    const [emoji] = selectSourceLinks([link('https://example.com/', '😀'.repeat(100))]);
    expect(emoji.label.length).toBeLessThanOrEqual(SOURCE_LINK_LABEL_MAX);
    expect(emoji.label).toMatch(/^(😀)+…$/u);
  });

  it('collapses whitespace and removes control and bidi characters', () => {
    const [out] = selectSourceLinks([
      link('https://example.com/', '  Annual\t\treport\n2024\u0000\u001b[31m \u202Etxt.exe\u0085 '),
    ]);
    expect(out.label).toBe('Annual report 2024[31m txt.exe');
    expect(out.label.length).toBeLessThanOrEqual(SOURCE_LINK_LABEL_MAX);
  });

  it('uses the host when the label is empty after cleaning', () => {
    const out = selectSourceLinks([
      link('https://docs.example.com/a', ''),
      link('https://example.org:8443/b', ' \n\u0007 '),
      { label: undefined as unknown as string, url: 'https://münchen.de/' },
    ]);
    expect(out.map((l) => l.label)).toEqual(['docs.example.com', 'example.org:8443', 'xn--mnchen-3ya.de']);
  });

  it(`returns at most ${MAX_SOURCE_LINKS} links`, () => {
    const many = Array.from({ length: 25 }, (_, i) => link(`https://example.com/doc/${i}`, `Doc ${i}`));
    const out = selectSourceLinks(many);
    expect(out).toHaveLength(MAX_SOURCE_LINKS);
    expect(out[MAX_SOURCE_LINKS - 1].url).toBe(`https://example.com/doc/${MAX_SOURCE_LINKS - 1}`);
  });

  it('never returns a hostile URL when mixed with safe ones', () => {
    const mixed: SourceLinkCandidate[] = [];
    HOSTILE.forEach(([url], i) => {
      mixed.push(link(url, `bad ${i}`));
      if (i % 20 === 0) mixed.push(link(`https://example.com/safe/${i}`, `good ${i}`));
    });
    const out = selectSourceLinks(mixed);
    expect(out.map((l) => l.label)).toEqual(
      HOSTILE.map((_, i) => i)
        .filter((i) => i % 20 === 0)
        .map((i) => `good ${i}`),
    );
    for (const { url } of out) expect(unsafeLinkReason(url)).toBeNull();
  });
});
