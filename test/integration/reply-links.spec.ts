import { SOURCE_LINK_LABEL_MAX } from '../../src/commands/replies/source-links';
import { REPLY_EVIDENCE_LIMIT } from '../../src/commands/replies/reply-retrieval';
import { MEMORY_ITEMS, type MemoryItemDocument } from '../../src/projections/memory.projection';
import { ingest } from '../support/memory-fixtures';
import {
  citeAllEvidence,
  postReply,
  readStream,
  replyBody,
  replyConnector,
  replyStreamName,
  startReplyHarness,
  storedReceipt,
  type ReplyHarness,
  type TestConnector,
} from '../support/reply-fixtures';

/**
 * ARCHITECTURE.md invariant 5 and spec §4.6 rule 7: only public http(s) URLs leave the service in source_links,
 * however a hostile source URI is encoded. Every hostile URI below is the source_uri of a memory item that a reply
 * actually cites; none may appear in the reply's source_links or in its stored receipt.
 */
const HOSTILE: Array<[category: string, url: string]> = [
  ['loopback IPv4', 'http://127.0.0.1/admin'],
  ['loopback decimal IPv4', 'http://2130706433/'],
  ['loopback octal IPv4', 'http://0177.0.0.1/'],
  ['loopback octal IPv4, one number', 'http://017700000001/'],
  ['loopback hex IPv4', 'http://0x7f.0.0.1/'],
  ['loopback hex IPv4, one number', 'http://0x7f000001/'],
  ['loopback short IPv4', 'http://127.1:8080/'],
  ['loopback fullwidth dots', 'http://127。0。0。1/'],
  ['private 10/8', 'http://10.0.0.5/wiki'],
  ['private 192.168/16', 'https://192.168.1.1/router'],
  ['private 172.16/12', 'http://172.16.4.2/'],
  ['CGNAT 100.64/10', 'http://100.64.0.1/'],
  ['unspecified 0.0.0.0', 'http://0.0.0.0:3000/'],
  ['metadata 169.254.169.254', 'http://169.254.169.254/latest/meta-data/iam/'],
  ['metadata decimal', 'http://2852039166/latest/'],
  ['metadata hex', 'http://0xa9fea9fe/'],
  ['metadata ECS', 'http://169.254.170.2/v2/credentials'],
  ['link-local IPv4', 'http://169.254.1.1/'],
  ['IPv4-mapped IPv6 metadata', 'http://[::ffff:169.254.169.254]/'],
  ['IPv4-mapped IPv6 loopback (hex)', 'http://[::ffff:7f00:1]/'],
  ['IPv4-mapped IPv6, public address', 'http://[::ffff:8.8.8.8]/'],
  ['IPv6 loopback', 'http://[::1]/'],
  ['IPv6 unique local', 'http://[fd12:3456::1]/'],
  ['IPv6 link-local', 'http://[fe80::1]/'],
  ['IPv6 AWS metadata', 'http://[fd00:ec2::254]/latest/'],
  ['userinfo user:password', 'https://admin:hunter2@docs.clinic-example.com/'],
  ['userinfo user only', 'https://deploy@docs.clinic-example.com/faq'],
  ['presigned S3 credential', 'https://bucket.s3.amazonaws.com/a.pdf?X-Amz-Signature=abc&X-Amz-Credential=k'],
  ['token in query', 'https://docs.clinic-example.com/page?access_token=secret'],
  ['file scheme', 'file:///etc/passwd'],
  ['data scheme', 'data:text/html,<script>alert(1)</script>'],
  ['javascript scheme', 'javascript:alert(document.cookie)'],
  ['javascript scheme, mixed case', 'JaVaScRiPt:alert(1)'],
  ['s3 storage', 's3://clinic-private/records.csv'],
  ['gs storage', 'gs://clinic-private/records.csv'],
  ['ftp scheme', 'ftp://files.clinic-example.com/a.txt'],
  ['localhost', 'http://localhost/'],
  ['localhost upper case, port, trailing dot', 'HTTP://LOCALHOST.:8080/x'],
  ['localhost subdomain', 'http://api.localhost/'],
  ['.internal name', 'http://billing.internal/'],
  ['GCP metadata name', 'http://metadata.google.internal/computeMetadata/v1/'],
  ['.local name', 'http://printer.local/'],
  ['Kubernetes service', 'http://db.default.svc.cluster.local/'],
  ['single-label name', 'http://intranet/'],
  ['wildcard DNS spelling loopback', 'http://127.0.0.1.nip.io/'],
  ['not a URL', 'clinic website'],
];

const CONTROL_URL = (group: number) => `https://www.clinic-example.com/sources/${group}`;
/** Per-group nonsense words: a question about one group retrieves exactly that group's items. */
const WORD = (group: number) => `zq${'abcdefghijklmnop'[group]}links`;
/** Hostile items per reply, leaving room for the group's control within the evidence limit. */
const PER_GROUP = REPLY_EVIDENCE_LIMIT - 2;

/** Every spelling a hostile URL could leave in: as given, trimmed, lower-cased, WHATWG-normalized, without fragment. */
function spellings(url: string): string[] {
  const forms = [url, url.trim(), url.toLowerCase()];
  try {
    const parsed = new URL(url);
    forms.push(parsed.href);
    parsed.hash = '';
    forms.push(parsed.href);
  } catch {
    // unparseable: only the raw forms
  }
  return forms;
}
const HOSTILE_SPELLINGS = new Set(HOSTILE.flatMap(([, url]) => spellings(url)));

type Link = { label: string; url: string };
type Reference = { memory_item_id: number; title: string; source_uri: string; limitations: string[] };

describe('source links of replies withhold hostile URLs (invariant 5, spec §4.6 rule 7)', () => {
  let h: ReplyHarness;
  let connector: TestConnector;

  beforeAll(async () => {
    h = await startReplyHarness('Links');
    connector = await replyConnector(h);
  });
  afterAll(() => h.close());
  beforeEach(() => h.model.script.respond('draft', citeAllEvidence));

  async function ingestItem(title: string, word: string, n: number, sourceUri: string): Promise<number> {
    const content = `${word} record ${n}: the clinic keeps entry ${n} on file.`;
    // Credential-bearing source URIs are refused by ingestion's scanner unless an operator allows them; these are
    // allowed, so that the reply path's own link policy is what withholds them.
    const { memory_item_id } = await ingest(
      h.t.commands,
      h.organizationId,
      title,
      content,
      { source_uri: sourceUri },
      { allowFlags: ['secret', 'credential_context'] },
    );
    return memory_item_id;
  }

  /** Asks about one group; asserts every item of it was cited and the reply's links are consistent. */
  async function askGroup(group: number, itemIds: number[]) {
    const key = `links-${group}`;
    const res = await postReply(h, connector.token, replyBody(key, `What does ${WORD(group)} say?`));
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    const cited = (res.body.references as Reference[]).map((r) => r.memory_item_id);
    expect([...cited].sort((a, b) => a - b)).toEqual([...itemIds].sort((a, b) => a - b)); // each hostile item WAS cited
    const links = res.body.source_links as Link[];
    expect(res.body.source_count).toBe(links.length);
    expect(new Set(links.map((l) => l.url)).size).toBe(links.length);
    for (const link of links) {
      expect(HOSTILE_SPELLINGS.has(link.url)).toBe(false);
      expect(link.url).toMatch(/^https?:\/\//);
      expect(link.label.length).toBeLessThanOrEqual(SOURCE_LINK_LABEL_MAX);
    }
    const receipt = await storedReceipt(h, replyStreamName(h, connector.connector_id, key));
    expect(receipt.source_links).toEqual(links);
    return { body: res.body, references: res.body.references as Reference[], links, key };
  }

  const groups = Array.from({ length: Math.ceil(HOSTILE.length / PER_GROUP) }, (_, g) =>
    HOSTILE.slice(g * PER_GROUP, (g + 1) * PER_GROUP),
  );

  it(`the table covers ≥ 35 hostile URLs in ${groups.length} groups`, () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(35);
    expect(new Set(HOSTILE.map(([, url]) => url)).size).toBe(HOSTILE.length);
  });

  it.each(groups.map((rows, g) => [g, rows.map(([category]) => category).join('; '), rows] as const))(
    'group %i (%s): cited, but only the control link is returned',
    async (g, _categories, rows) => {
      const ids: number[] = [];
      for (const [i, [category, url]] of rows.entries()) {
        ids.push(await ingestItem(`Hostile ${category}`, WORD(g), i, url));
      }
      ids.push(await ingestItem(`Control ${g}`, WORD(g), 99, CONTROL_URL(g)));
      // Ingestion kept each hostile URI on its item, so each cited item offered it as a link candidate.
      const items = await h.t.stores.readStore.getMany<MemoryItemDocument>(MEMORY_ITEMS, ids.map(String));
      expect(ids.map((id) => items.get(String(id))?.source_uri)).toEqual([
        ...rows.map(([, url]) => url),
        CONTROL_URL(g),
      ]);
      const { links, references, body } = await askGroup(g, ids);
      expect(links).toEqual([{ label: `Control ${g}`, url: CONTROL_URL(g) }]);
      // Invariant 5 covers the whole reply: a withheld URI is not in references[].source_uri either.
      const control = references.find((r) => r.title === `Control ${g}`);
      expect(control?.source_uri).toBe(CONTROL_URL(g));
      for (const reference of references.filter((r) => r !== control)) {
        expect(reference.source_uri).toBe('');
        expect(reference.limitations).toContainEqual(expect.stringMatching(/^source link withheld: /));
      }
      const text = JSON.stringify(body);
      for (const [, url] of rows) expect(text.includes(JSON.stringify(url).slice(1, -1))).toBe(false);
    },
  );

  it('public links are deduplicated across spellings, labels bounded, and a replay returns the same links', async () => {
    const g = groups.length;
    const longTitle = `${'Opening hours and appointment rules for every department '.repeat(4)}end`;
    const ids = [
      await ingestItem('Clinic FAQ', WORD(g), 1, 'https://Docs.Clinic-Example.com:443/faq#hours'),
      await ingestItem('Clinic FAQ again', WORD(g), 2, 'https://docs.clinic-example.com/faq'),
      await ingestItem(longTitle, WORD(g), 3, 'https://www.clinic-example.com/rules'),
      await ingestItem('Public\u202E\taddress\nliteral', WORD(g), 4, 'http://93.184.215.14/about'),
      await ingestItem('Metadata', WORD(g), 5, 'http://169.254.169.254/'),
    ];
    const { body, links, key, references } = await askGroup(g, ids);
    expect(references).toHaveLength(5);
    expect(links.map((l) => l.url).sort()).toEqual(
      [
        'https://docs.clinic-example.com/faq',
        'https://www.clinic-example.com/rules',
        'http://93.184.215.14/about',
      ].sort(),
    );
    expect(body.source_count).toBe(3);
    // Whitespace collapsed, bidi overrides removed.
    expect(links.find((l) => l.url === 'http://93.184.215.14/about')?.label).toBe('Public address literal');
    const long = links.find((l) => l.url === 'https://www.clinic-example.com/rules') as Link;
    expect(long.label.length).toBeLessThanOrEqual(SOURCE_LINK_LABEL_MAX);
    expect(long.label.endsWith('…')).toBe(true);
    expect(longTitle.startsWith(long.label.slice(0, -1).trimEnd())).toBe(true);

    const calls = h.model.calls.chat;
    const replay = await postReply(h, connector.token, replyBody(key, `What does ${WORD(g)} say?`));
    expect(replay.body.grounding.idempotent_replay).toBe(true);
    expect(replay.body.source_links).toEqual(links);
    expect(replay.body.source_count).toBe(links.length);
    expect(h.model.calls.chat).toBe(calls);
    const stream = await readStream(h, replyStreamName(h, connector.connector_id, key));
    expect(stream.map((e) => e.type)).toEqual(['ReplyRequested', 'ReplyCompleted']);
  });
});
