import fc from 'fast-check';
import { WITHHELD_LINK_MARKER, withholdUnsafeLinks } from '../../../src/safety/link-text';

const M = WITHHELD_LINK_MARKER;

describe('withholdUnsafeLinks (invariant 5 in free text)', () => {
  it.each([
    ['See http://169.254.169.254/latest/meta-data/ for keys.', `See ${M} for keys.`, 'metadata'],
    ['Open http://localhost:8080/admin.', `Open ${M}.`, 'loopback'],
    ['Wiki: https://10.0.0.5/wiki/page', `Wiki: ${M}`, 'private'],
    ['[click](javascript:alert(1))', `[click](${M})`, 'scheme'],
    ['javascript&#58;alert(document.cookie)', M, 'scheme'],
    ['ｈｔｔｐ：／／１２７．０．０．１/x', M, 'loopback'],
    ['ht\u200Btp://127.0.0.1/x now', `${M} now`, 'loopback'],
    ['go to http%3A%2F%2F127.0.0.1%2Fadmin please', `go to ${M} please`, 'loopback'],
    ['http://2130706433/ is home', `${M} is home`, 'loopback'],
    ['metadata.google.internal/computeMetadata/v1/ has it', `${M} has it`, 'metadata'],
    ['the router at 192.168.1.1 resets', `the router at ${M} resets`, 'private'],
    ['see intranet.acme.corp for details', `see ${M} for details`, 'internal_name'],
    ['file:///etc/passwd', M, 'scheme'],
    ['data:text/html;base64,PHNjcmlwdD4=', M, 'scheme'],
    ['call [::1]:3000/x', `call ${M}`, 'loopback'],
    ['https://user:pw@example.com/a', M, 'credentials'],
    ['http://127.0.0.1.nip.io/', M, 'loopback'],
  ])('withholds %j', (input, output, reason) => {
    expect(withholdUnsafeLinks(input)).toEqual({ text: output, withheld: [reason] });
  });

  it.each([
    'Refunds within 30 days; see https://www.acme.com/refunds.',
    'Open 9:00–17:00, Saturday 9–13. Price 3.50 EUR, version 1.2, ratio 0.5/1.',
    'Mail support@acme.corp or call +1 555 123 4567.',
    'Visit www.acme.com or acme.com/help today.',
    'Note: bring your ID. Re: billing.',
    'It costs $1,000.00 (about 10.5% more).',
  ])('leaves %j unchanged', (input) => {
    expect(withholdUnsafeLinks(input)).toEqual({ text: input, withheld: [] });
  });

  it('never lets a non-public host through, whatever surrounds it', () => {
    const hosts = ['127.0.0.1', '10.1.2.3', '169.254.169.254', 'localhost', '[::1]', '192.168.0.10'];
    fc.assert(
      fc.property(
        fc.constantFrom(...hosts),
        fc.constantFrom('http://', 'https://', 'HTTP://', 'http:\\\\', ''),
        fc.string({ maxLength: 20 }).filter((s) => !/[\s<>"'`]/.test(s)),
        fc.constantFrom(' ', '\n', '(', '"'),
        (host, scheme, path, before) => {
          const out = withholdUnsafeLinks(`x${before}${scheme}${host}/${path} y`).text;
          const bare = host.replace(/[[\]]/g, '');
          return !out.includes(bare);
        },
      ),
    );
  });
});
