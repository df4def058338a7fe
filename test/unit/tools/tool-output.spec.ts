import { projectToolOutput } from '../../../src/tools/tool-output';
import { pem, rand, withLuhn } from '../unsafe-content/samples/generators';
import { awsKeyId, definition, githubToken, good, jwt, output, rejection } from './output-fixture';
import type { Raw } from './schema-builders';

describe('projectToolOutput', () => {
  it('passes a valid output, projected to a fresh object with the declared fields', () => {
    const value = good();
    const result = projectToolOutput(definition, value);
    expect(result).toEqual({ ok: true, output: value });
    if (result.ok) expect(result.output).not.toBe(value);
  });

  it('normalizes linkable URLs and is idempotent', () => {
    const value = output((v) => (v.tracking_url = 'https://TRACK.example.com:443/T/1Z999?x=1#top'));
    const first = projectToolOutput(definition, value);
    expect(first.ok && first.output.tracking_url).toBe('https://track.example.com/T/1Z999?x=1#top');
    const second = first.ok ? projectToolOutput(definition, first.output) : first;
    expect(second).toEqual(first);
  });

  const REJECTED: Array<[string, unknown, string, string]> = [
    [
      'an extra top-level field',
      output((v) => (v.internal_notes = 'margin 40%')),
      'unexpected_field',
      'output.internal_notes',
    ],
    [
      'an extra nested field',
      output((v) => (v.items[1].cost = 3)),
      'unexpected_field',
      'output.items[1].cost',
    ],
    [
      'an extra field with an odd name',
      output((v) => (v['x y'] = 1)),
      'unexpected_field',
      'output.<undeclared>',
    ],
    ['a missing required field', output((v) => delete v.status), 'missing_field', 'output.status'],
    [
      'a missing required nested field',
      output((v) => delete v.items[0].qty),
      'missing_field',
      'output.items[0].qty',
    ],
    ['a wrong type', output((v) => (v.items[0].qty = '2')), 'invalid_type', 'output.items[0].qty'],
    [
      'a fraction for an integer',
      output((v) => (v.items[0].qty = 1.5)),
      'invalid_type',
      'output.items[0].qty',
    ],
    ['null for a non-nullable field', output((v) => (v.order_id = null)), 'invalid_type', 'output.order_id'],
    ['an enum violation', output((v) => (v.status = 'lost')), 'not_in_enum', 'output.status'],
    ['a number above maximum', output((v) => (v.total = 100_000.01)), 'out_of_range', 'output.total'],
    ['a number below minimum', output((v) => (v.items[0].qty = 0)), 'out_of_range', 'output.items[0].qty'],
    ['an oversize string', output((v) => (v.order_id = 'x'.repeat(41))), 'too_long', 'output.order_id'],
    [
      'too many items',
      output((v) => (v.items = Array(6).fill({ sku: 'A', qty: 1 }))),
      'too_many_items',
      'output.items',
    ],
    [
      'a nested array too long',
      output((v) => (v.matrix = [[1, 2, 3, 4]])),
      'too_many_items',
      'output.matrix[0]',
    ],
    [
      'a wrong type in a nested array',
      output((v) => (v.matrix = [[1], ['2']])),
      'invalid_type',
      'output.matrix[1][0]',
    ],
    ['an impossible date', output((v) => (v.eta = '2026-02-30')), 'invalid_format', 'output.eta'],
    [
      'a date-time without offset',
      output((v) => (v.updated_at = '2026-07-17T10:30:00')),
      'invalid_format',
      'output.updated_at',
    ],
    ['NaN', output((v) => (v.total = NaN)), 'invalid_type', 'output.total'],
    [
      'a non-plain object',
      output((v) => (v.items[0] = new Date() as unknown as Raw)),
      'invalid_type',
      'output.items[0]',
    ],
    ['an array as the output', [good()], 'invalid_type', 'output'],
    [
      'a GitHub token',
      output((v) => (v.items[0].note = `use ${githubToken}`)),
      'credential',
      'output.items[0].note',
    ],
    ['an AWS key id', output((v) => (v.order_id = awsKeyId)), 'credential', 'output.order_id'],
    ['a JWT', output((v) => (v.items[1].note = jwt)), 'credential', 'output.items[1].note'],
    [
      'a private key',
      output((v) => (v.items[1].note = pem('RSA PRIVATE KEY', 7).slice(0, 200))),
      'credential',
      'output.items[1].note',
    ],
    [
      'a card number',
      output((v) => (v.items[0].note = `card ${withLuhn(`453914${rand(32, 9, '0123456789')}`)}`)),
      'sensitive_data',
      'output.items[0].note',
    ],
    [
      'a private URL in a linkable field',
      output((v) => (v.tracking_url = 'http://127.0.0.1/track')),
      'unsafe_link',
      'output.tracking_url',
    ],
    [
      'a metadata URL in a linkable field',
      output((v) => (v.shipments[0].link = 'http://169.254.169.254/latest')),
      'unsafe_link',
      'output.shipments[0].link',
    ],
    [
      'an internal name in a linkable field',
      output((v) => (v.tracking_url = 'https://track.corp/x')),
      'unsafe_link',
      'output.tracking_url',
    ],
    [
      'another host in a linkable field',
      output((v) => (v.tracking_url = 'https://evil.example.net/x')),
      'link_host_not_allowed',
      'output.tracking_url',
    ],
    [
      'a subdomain of an allowed host',
      output((v) => (v.tracking_url = 'https://a.track.example.com/x')),
      'link_host_not_allowed',
      'output.tracking_url',
    ],
    [
      'an allowed host as a prefix',
      output((v) => (v.tracking_url = 'https://track.example.com.evil.net/x')),
      'link_host_not_allowed',
      'output.tracking_url',
    ],
    [
      'a javascript: URI in a linkable field',
      output((v) => (v.tracking_url = 'javascript:alert(1)')),
      'absolute_uri',
      'output.tracking_url',
    ],
    [
      'text around a URL in a linkable field',
      output((v) => (v.tracking_url = 'see https://track.example.com/x')),
      'absolute_uri',
      'output.tracking_url',
    ],
    [
      'a second URL inside a linkable URL',
      output((v) => (v.tracking_url = 'https://track.example.com/r?next=https://evil.net')),
      'absolute_uri',
      'output.tracking_url',
    ],
    [
      'a URL in text of a non-linkable field',
      output((v) => (v.items[0].note = 'Track at https://track.example.com/x')),
      'absolute_uri',
      'output.items[0].note',
    ],
    [
      'a URL in a non-linkable nested field',
      output((v) => (v.shipments[1].carrier = 'https://track.example.com/x')),
      'absolute_uri',
      'output.shipments[1].carrier',
    ],
  ];

  it.each(REJECTED)('rejects %s', (_name, value, reason, path) => {
    expect(rejection(value)).toMatchObject({ reason, path });
  });

  it('rejects a __proto__ key from JSON.parse as an undeclared field', () => {
    const value = JSON.parse(
      `{"order_id": "A-1", "status": "pending", "__proto__": {"polluted": true}}`,
    ) as unknown;
    expect(rejection(value)).toMatchObject({ reason: 'unexpected_field', path: 'output.<undeclared>' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps a random id inside an allowed link (high-entropy rule skips URLs)', () => {
    const link = `https://track.example.com/T/${rand(40, 40)}`;
    const result = projectToolOutput(
      definition,
      output((v) => (v.tracking_url = link)),
    );
    expect(result.ok && result.output.tracking_url).toBe(link);
  });

  it('withholds user info in a linkable URL', () => {
    const { path } = rejection(output((v) => (v.tracking_url = 'https://user:pw@track.example.com/x')));
    expect(path).toBe('output.tracking_url');
  });

  it('never echoes the rejected value', () => {
    const value = output((v) => (v.items[0].note = `token ${githubToken}`));
    expect(JSON.stringify(rejection(value))).not.toContain(githubToken);
  });
});
