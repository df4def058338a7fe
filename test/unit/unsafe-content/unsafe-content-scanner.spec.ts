import {
  UnsafeContentScanner,
  type UnsafeFlag,
} from '../../../src/safety/unsafe-content/unsafe-content-scanner';
import { ALNUM, BASE32, BASE64, group, pem, rand, withLuhn } from './samples/generators';
import { NEGATIVES } from './samples/negatives';
import { POSITIVES } from './samples/positives';

/*
 * Table-driven secret scanning test: every positive must be flagged with the expected kind (0 leaks) without the
 * value appearing in any message/field; at most 2 look-alike negatives may be flagged. Then location, multi-field
 * and de-duplication behaviour.
 */
describe('UnsafeContentScanner', () => {
  const scanner = new UnsafeContentScanner();

  const assertNothingEchoed = (flags: UnsafeFlag[], secrets: string[]): void => {
    for (const flag of flags) {
      for (const secret of secrets) {
        expect(flag.message).not.toContain(secret);
        expect(flag.field).not.toContain(secret);
        expect(flag.rule).not.toContain(secret);
      }
    }
  };

  it('has at least 25 positives and 25 negatives', () => {
    expect(POSITIVES.length).toBeGreaterThanOrEqual(25);
    expect(NEGATIVES.length).toBeGreaterThanOrEqual(25);
  });

  it.each(POSITIVES)(
    'flags $label (kind $kind) without echoing it',
    async ({ input, secrets, kind, rules }) => {
      const flags = await scanner.scan({ content: input });
      const match = flags.find((flag) => flag.kind === kind && (!rules || rules.includes(flag.rule)));
      if (!match) throw new Error(`missed (leak): got ${JSON.stringify(flags.map((f) => [f.kind, f.rule]))}`);
      expect(match.field).toBe('content');
      expect(match.message.length).toBeGreaterThan(0);
      assertNothingEchoed(flags, secrets);
    },
  );

  it('flags at most 2 of the look-alike negatives', async () => {
    const flagged: string[] = [];
    for (const { label, input } of NEGATIVES) {
      const flags = await scanner.scan({ content: input });
      if (flags.length > 0)
        flagged.push(`${label}: ${flags.map((f) => `${f.kind}/${f.rule}@${f.line}:${f.column}`).join(', ')}`);
    }
    if (flagged.length > 0)
      process.stdout.write(`flagged negatives (${flagged.length}):\n  ${flagged.join('\n  ')}\n`);
    expect(flagged.length).toBeLessThanOrEqual(2);
  });

  describe('locations', () => {
    const awsId = `AKIA${rand(501, 16, BASE32)}`;

    it('reports 1-based line and column of the start and the length', async () => {
      const [flag] = await scanner.scan({ content: `first line\n  second: ${awsId} end` });
      expect(flag).toMatchObject({
        field: 'content',
        line: 2,
        column: 11,
        length: 20,
        rule: 'aws_access_key_id',
      });
    });

    it('counts columns and lengths in characters (an emoji counts once)', async () => {
      const [flag] = await scanner.scan({ content: `🙂🙂 id ${awsId}` });
      expect(flag).toMatchObject({ line: 1, column: 7, length: 20 });
    });

    it('counts CRLF and CR line breaks once', async () => {
      const [flag] = await scanner.scan({ content: `a\r\nb\rc\r\n${awsId}` });
      expect(flag).toMatchObject({ line: 4, column: 1 });
    });

    it('locates a multi-line private key at its BEGIN line, covering the block', async () => {
      const block = pem('RSA PRIVATE KEY', 502);
      const flags = await scanner.scan({ content: `Deploy key below.\n${block}\nThanks` });
      expect(flags).toHaveLength(1);
      expect(flags[0]).toMatchObject({ kind: 'private_key', line: 2, column: 1, length: block.length });
    });

    it('locates a grouped card number', async () => {
      const card = group(withLuhn(`453914${rand(503, 9, '0123456789')}`), [4, 4, 4, 4], ' ');
      const flags = await scanner.scan({ content: `Paid: ${card}.` });
      expect(flags).toEqual([
        expect.objectContaining({ kind: 'card_number', line: 1, column: 7, length: 19 }),
      ]);
    });
  });

  describe('records with several fields', () => {
    it('scans every field, names it, and sorts by field, line, column', async () => {
      const token = `ghp_${rand(504, 36)}`;
      const password = `${rand(505, 12)}#1`;
      const flags = await scanner.scan({
        title: `Rotate ${token} today`,
        notes: 'Nothing sensitive here.',
        content: `Steps:\nlogin as admin\npassword: ${password}\nthen ${token}`,
      });
      expect(flags.map((f) => [f.field, f.line, f.column])).toEqual([
        ['content', 3, 11],
        ['content', 4, 6],
        ['title', 1, 8],
      ]);
      for (const flag of flags) {
        expect(flag.message).not.toContain(token);
        expect(flag.message).not.toContain(password);
      }
    });

    it('returns nothing for empty or harmless fields', async () => {
      await expect(scanner.scan({})).resolves.toEqual([]);
      await expect(scanner.scan({ title: '', content: 'Quarterly review notes.' })).resolves.toEqual([]);
    });
  });

  describe('de-duplication and context', () => {
    it('reports one flag when several rules match the same span', async () => {
      const slack = `xoxb-${rand(506, 12, '0123456789')}-${rand(507, 13, '0123456789')}-${rand(508, 24)}`;
      const secret = rand(509, 40, BASE64);
      const flags = await scanner.scan({
        content: `SLACK_TOKEN=${slack}\naws_secret_access_key = ${secret}`,
      });
      expect(flags.map((f) => f.line)).toEqual([1, 2]);
    });

    it('reports connection details only next to a credential', async () => {
      await expect(scanner.scan({ content: 'host: db.internal\nuser: admin' })).resolves.toEqual([]);
      const flags = await scanner.scan({
        content: `host: db.internal\nuser: admin\npassword: ${rand(510, 14)}`,
      });
      expect(flags.map((f) => f.kind)).toEqual(['credential_context', 'credential_context', 'secret']);
    });

    it('cannot be hidden inside or after a certificate armor block', async () => {
      const password = `${rand(512, 12)}9`;
      const inside = `-----BEGIN CERTIFICATE-----\npassword: ${password}\n-----END CERTIFICATE-----`;
      const after = `-----BEGIN CERTIFICATE-----\n${rand(513, 64, BASE64)}\n\npassword: ${password}`;
      for (const content of [inside, after]) {
        const flags = await scanner.scan({ content });
        expect(flags.map((f) => f.rule)).toContain('password_assignment');
      }
    });

    it('cannot be switched off by a secretlint-disable comment in the content', async () => {
      const token = `ghp_${rand(511, 36)}`;
      const flags = await scanner.scan({ content: `# secretlint-disable\n${token}\n# secretlint-enable` });
      expect(flags.map((f) => f.rule)).toContain('@secretlint/secretlint-rule-github');
    });
  });

  it('scans 50 KB of prose quickly', async () => {
    const words = [
      'customer',
      'renewal',
      'invoice',
      'meeting',
      'Q3',
      'roadmap',
      'support',
      'ticket',
      '2024-05-17',
    ];
    let prose = '';
    for (let i = 0; prose.length < 50_000; i++) {
      prose += `${words[i % words.length]} ${rand(600 + i, 6, ALNUM.slice(26, 52))} ${i}${i % 12 === 11 ? '.\n' : ' '}`;
    }
    await scanner.scan({ content: prose });
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await expect(scanner.scan({ content: prose })).resolves.toEqual([]);
      times.push(performance.now() - started);
    }
    const median = times.sort((a, b) => a - b)[2];
    process.stdout.write(`50 KB prose scan: median ${median.toFixed(1)} ms\n`);
    expect(median).toBeLessThan(250);
  });
});
