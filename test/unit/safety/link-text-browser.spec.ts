import fc from 'fast-check';
import { WITHHELD_LINK_MARKER, findLinks, withholdUnsafeLinks } from '../../../src/safety/link-text';

const M = WITHHELD_LINK_MARKER;

/** Issue 31 point 6: every candidate is judged as a browser parses it (WHATWG URL after HTML entity decoding). */
describe('links read the way a browser reads them', () => {
  it.each([
    [
      'scheme-relative in an attribute',
      '<a href="//10.0.0.5/x">map</a>',
      `<a href="${M}">map</a>`,
      'private',
    ],
    ['scheme-relative in prose', 'see //10.0.0.5/x now', `see ${M} now`, 'private'],
    ['scheme-relative with backslashes', 'see \\\\127.0.0.1\\admin', `see ${M}`, 'loopback'],
    ['slash and backslash', '<a href="/\\10.0.0.5">x</a>', `<a href="${M}">x</a>`, 'private'],
    ['https:\\\\host', 'Go to https:\\\\10.0.0.5\\wiki today', `Go to ${M} today`, 'private'],
    ['named entity colon', 'Go to https&colon;//10.0.0.5/x', `Go to ${M}`, 'private'],
    ['special scheme without slashes', 'Open http:0x7f000001 now', `Open ${M} now`, 'loopback'],
    ['special scheme, one slash', 'Open https:/169.254.169.254/latest', `Open ${M}`, 'metadata'],
    ['tab entity inside javascript:', 'Click java&Tab;script:alert(1)', `Click ${M}`, 'scheme'],
    ['newline entities', 'java&NewLine;script&colon;alert(1)', M, 'scheme'],
    ['mixed case javascript:', '[x](JaVaScRiPt:alert(1))', `[x](${M})`, 'scheme'],
    ['newline after a script colon', 'javascript:\nalert(1)', M, 'scheme'],
    ['tab inside http', 'ht&Tab;tp://127.0.0.1/', M, 'loopback'],
    [
      'newline between http: and //',
      '<a href="http:&#10;//10.0.0.5">x</a>',
      `<a href="${M}">x</a>`,
      'private',
    ],
    [
      'newline inside an attribute host',
      '<a href="http://acme.com&#10;.evil.corp/">x</a>',
      `<a href="${M}">x</a>`,
      'internal_name',
    ],
    ['markdown <destination> with a tab', '[x](<//&Tab;10.0.0.5>)', `[x](<${M}>)`, 'private'],
    ['upper-case data:', 'DATA:text/html;base64,PHNjcmlwdD4=', M, 'scheme'],
    ['bare wildcard-DNS name', 'Use 10-0-0-1.sslip.io please', `Use ${M} please`, 'private'],
    ['bare loopback name', 'Use lvh.me please', `Use ${M} please`, 'wildcard_dns'],
    ['bare spelled-IP name', 'at 127.0.0.1.nip.io.', `at ${M}.`, 'loopback'],
    ['bare name under an internal suffix', 'at wiki.acme.corp.', `at ${M}.`, 'internal_name'],
  ])('%s: %j', (_kind, input, output, reason) => {
    expect(withholdUnsafeLinks(input)).toEqual({ text: output, withheld: [reason] });
  });

  it.each([
    // Bare public domains are judged as http:// + the name, and that is a public link (figures are checked elsewhere).
    'Log in at evil-example.com/login today.',
    'Shop at acme-shop.com.evil.io now.',
    'See e.g. the manual, i.e. file.txt, node.js, readme.md, index.html, Mr.Smith or v1.2.',
    'Rated 3.5/5, open 24/7 and/or by appointment, 9:00–17:00, $4.99, 1.5/2.',
    'HTTP: the protocol. Data: 5 GB. About: us. Note: bring your ID.',
    'See https://www.acme.com/a//b and <a href="/help/faq">FAQ</a> or [FAQ](<faq.html>).',
    'Paths like a/b//c stay.',
  ])('leaves %j unchanged', (input) => {
    expect(withholdUnsafeLinks(input)).toEqual({ text: input, withheld: [] });
  });
});

const DANGEROUS_HOSTS = [
  '127.0.0.1',
  '10.0.0.5',
  '169.254.169.254',
  '192.168.1.1',
  'localhost',
  '[::1]',
  '0x7f000001',
  '2130706433',
  'metadata.google.internal',
  'wiki.acme.corp',
  '10-0-0-1.sslip.io',
];
/** Spellings of `http://` a browser reads as one, in HTML or markdown. */
const SCHEME_SPELLINGS = [
  'http://',
  'HTTPS://',
  'https:\\\\',
  'http:/\\',
  'http:',
  '//',
  '\\\\',
  'https&colon;//',
  'http&#58;//',
  'http&#x3a;&#x2f;&#x2f;',
  'ht&Tab;tp://',
  'h&NewLine;ttps://',
  'http%3A%2F%2F',
  'ｈｔｔｐ：／／',
  'ht\u200Btp://',
];
const CONTEXTS: Array<[string, string]> = [
  [' ', ' '],
  ['\n', '\n'],
  ['(', ')'],
  ['<a href="', '">link</a>'],
  ["<a href='", "'>link</a>"],
  ['[link](', ')'],
  ['[link](<', '>)'],
  ['"', '".'],
];
const word = fc.stringMatching(/^[A-Za-z]{1,10}$/);
const path = fc.stringMatching(/^[A-Za-z0-9_\-/.]{0,15}$/);

describe('property: a dangerous URL in prose, in any encoding, never leaves', () => {
  it('withholds every generated dangerous http URL', () => {
    fc.assert(
      fc.property(
        word,
        fc.constantFrom(...SCHEME_SPELLINGS),
        fc.constantFrom(...DANGEROUS_HOSTS),
        path,
        fc.constantFrom(...CONTEXTS),
        word,
        (before, scheme, host, tail, [open, close], after) => {
          const url = `${scheme}${host}${tail === '' ? '' : `/${tail}`}`;
          const scan = withholdUnsafeLinks(`${before}${open}${url}${close} ${after}`);
          return scan.withheld.length >= 1 && !scan.text.includes(host);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('withholds every generated bare dangerous name (judged as http:// + it)', () => {
    const bare = DANGEROUS_HOSTS.filter((host) => /\.[a-z]/.test(host));
    fc.assert(
      fc.property(word, fc.constantFrom(...bare), path, word, (before, host, tail, after) => {
        const scan = withholdUnsafeLinks(`${before} ${host}${tail === '' ? '' : `/${tail}`} ${after}.`);
        return scan.withheld.length >= 1 && !scan.text.includes(host);
      }),
      { numRuns: 200 },
    );
  });

  it('withholds every script scheme, whatever its case, entities, tabs or invisible characters', () => {
    const piece = fc.constantFrom(
      '',
      '',
      '',
      '&Tab;',
      '&#9;',
      '&NewLine;',
      '&#x0A;',
      '\t',
      '\n',
      '\u200B',
      '\u00AD',
    );
    const colon = fc.constantFrom(':', '&colon;', '&#58;', '&#x3A;', '&#0000058;', '：');
    fc.assert(
      fc.property(
        fc.constantFrom('javascript', 'vbscript', 'data', 'file'),
        fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
        fc.array(piece, { minLength: 10, maxLength: 10 }),
        colon,
        fc.constantFrom(...CONTEXTS),
        (scheme, upper, gaps, sep, [open, close]) => {
          const spelled = [...scheme].map(
            (c, i) => `${upper[i] ? c.toUpperCase() : c}${i < scheme.length - 1 ? gaps[i] : ''}`,
          );
          const scan = withholdUnsafeLinks(`Click ${open}${spelled.join('')}${sep}alert(1)${close} now`);
          return scan.withheld.includes('scheme') && !/alert/.test(scan.text);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('leaves ordinary prose with dots, abbreviations, figures and slashes untouched', () => {
    const token = fc.constantFrom(
      'e.g.',
      'i.e.',
      'etc.',
      'Mr.',
      'Dr.',
      'No.',
      'a.m.',
      'p.m.',
      'U.S.',
      'Inc.',
      'vs.',
      'approx.',
      'file.txt',
      'report.pdf',
      'node.js',
      'v1.2',
      'v2.0.1',
      '3.5',
      '1.5/2',
      '24/7',
      'and/or',
      '9:00',
      '10:30',
      '$4.99',
      '15%',
      'Note: ',
      'Hours: ',
      'HTTP: ',
      'Data: ',
      'www',
      'http',
      'https',
      'Sat.',
      'Mon–Fri',
      'acme.com',
      'https://acme.com/faq',
      'www.acme.com',
      'support@acme.corp',
      '+1',
      '555-0100',
      'the',
      'refund',
      'store',
      'opens',
    );
    const gap = fc.constantFrom(' ', ' ', ', ', '\n', ' (', ') ');
    fc.assert(
      fc.property(fc.array(fc.tuple(token, gap), { minLength: 1, maxLength: 20 }), (parts) => {
        const text = parts.map(([t, g]) => `${t}${g}`).join('');
        const scan = withholdUnsafeLinks(text);
        return scan.withheld.length === 0 && scan.text === text;
      }),
      { numRuns: 500 },
    );
  });
});

describe('invariant 11: the link finder is linear-time', () => {
  const N = 100_000;
  it.each([
    ['dotted labels', 'a.'.repeat(N / 2)],
    ['one long label', `${'a'.repeat(N)}.corp`],
    ['slashes', '//'.repeat(N / 2)],
    ['backslashes', '\\'.repeat(N)],
    ['colons after http', 'http:'.repeat(N / 5)],
    ['tabs inside a scheme', 'java\t'.repeat(N / 5)],
    ['tabs and slashes after http:', 'http:\t/\t'.repeat(N / 8)],
    ['tab entities', '&Tab;'.repeat(N / 5)],
    ['unclosed attributes', 'href="'.repeat(N / 6)],
    ['unclosed markdown destinations', '](<'.repeat(N / 3)],
    ['brackets', '['.repeat(N)],
    ['www', 'www.'.repeat(N / 4)],
    ['dotted numbers', '1.1.1.1.'.repeat(N / 8)],
    ['hosts with ports', 'a.b:1'.repeat(N / 5)],
    ['percent signs', '%2F'.repeat(N / 3)],
    ['parentheses to balance', `javascript:${'('.repeat(N / 2)}${')'.repeat(N / 2)}`],
  ])('%s (~100k characters) in well under a few seconds', (_name, body) => {
    const started = process.hrtime.bigint();
    withholdUnsafeLinks(`${body} :`);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    expect(ms).toBeLessThan(5_000);
  });
});

describe('findLinks: the same candidates, public or not, for checks that compare links', () => {
  it('lists each link once with the URL a browser makes of it and its reason', () => {
    const links = findLinks(
      'Log in at evil-example.com/login, see <a href="//10.0.0.5/x">map</a> or <a href="/faq">FAQ</a>, ' +
        'e.g. file.txt, and https&colon;//www.acme.com/refunds.',
    );
    expect(links.map(({ url, reason }) => [url, reason])).toEqual([
      ['http://10.0.0.5/x', 'private'],
      ['http://evil-example.com/login', null],
      ['https://www.acme.com/refunds', null],
    ]);
  });
});
