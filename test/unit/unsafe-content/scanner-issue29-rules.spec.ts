import { generateKeyPairSync } from 'node:crypto';
import { UnsafeContentScanner } from '../../../src/safety/unsafe-content/unsafe-content-scanner';
import { BASE64, rand } from './samples/generators';

/*
 * Issue 29 point 5, second round: the rules behind the blind corpus items caught since (armor labels, normalized
 * AWS key ids, short and nested encodings, escaped tokens, credential phrases in other languages). Each test names
 * what a user sees: the field is refused (a flag of the kind) or left alone.
 */
describe('UnsafeContentScanner issue 29 rules', () => {
  const scanner = new UnsafeContentScanner();
  const rules = async (content: string): Promise<string[]> =>
    (await scanner.scan({ content })).map((flag) => `${flag.kind}/${flag.rule}`);
  const pemBody = (der: Buffer): string => der.toString('base64').replace(/.{64}/g, '$&\n').trim();

  describe('armor blocks', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });

    it('flags a private key body under a PUBLIC KEY label', async () => {
      const der = ec.privateKey.export({ format: 'der', type: 'sec1' });
      const text = `-----BEGIN PUBLIC KEY-----\n${pemBody(der)}\n-----END PUBLIC KEY-----`;
      expect(await rules(text)).toContain('private_key/pem_private_key');
    });

    it('flags a private key under a made-up or double-spaced PRIVATE KEY label', async () => {
      const body = pemBody(rsa.privateKey.export({ format: 'der', type: 'pkcs1' }));
      for (const label of ['RSA PRIVATE KEY FILE', 'RSA  PRIVATE KEY']) {
        const text = `key:\n-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`;
        expect(await rules(text)).toEqual(['private_key/pem_private_key']);
      }
    });

    it('leaves a real public key alone but scans a PUBLIC KEY body that is not one', async () => {
      const spki = pemBody(ec.publicKey.export({ format: 'der', type: 'spki' }));
      expect(await rules(`-----BEGIN PUBLIC KEY-----\n${spki}\n-----END PUBLIC KEY-----`)).toEqual([]);
      const fake = `${rand(601, 64, BASE64)}\n${rand(602, 64, BASE64)}`;
      expect(await rules(`-----BEGIN PUBLIC KEY-----\n${fake}\n-----END PUBLIC KEY-----`)).not.toEqual([]);
    });
  });

  describe('AWS access key ids, normalized', () => {
    const id = 'AKIA2B3C4D5E6F7G8H2J'.replace(/[89]/g, '7');
    it.each([
      ['spaced every 4', id.replace(/(.{4})(?!$)/g, '$1 ')],
      ['hyphenated', id.replace(/(.{4})(?!$)/g, '$1-')],
      ['dotted', id.split('').join('.')],
      ['split over lines', `${id.slice(0, 10)}\n${id.slice(10)}`],
      ['split over table cells', `| id | ${id.slice(0, 10)} | ${id.slice(10)} |`],
      ['lower case', id.toLowerCase()],
      ['Cyrillic look-alikes', `\u0410\u041A\u0406\u0410${id.slice(4)}`],
      ['small capitals', `\u1D00\u1D0B\u026A\u1D00${id.slice(4)}`],
    ])('flags one written %s', async (_how, written) => {
      expect(await rules(`the key id is ${written} thanks`)).toContain('secret/aws_access_key_id');
    });

    it.each([
      ['capitals without a digit', 'AKIA MEANS KEYS FOR USER'],
      ['mixed case', 'Akia said 2 keys were bad'],
      ['too long', `${id.toLowerCase()}abc`],
    ])('leaves %s alone', async (_how, text) => {
      expect(await rules(text)).toEqual([]);
    });
  });

  describe('short, grouped, base32 and double encodings', () => {
    const id = 'AKIA2B3C4D5E6F7G2H2J';
    const b64 = (text: string): string => Buffer.from(text).toString('base64');
    const base32 = (text: string): string => {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
      const bits = [...Buffer.from(text)].map((byte) => byte.toString(2).padStart(8, '0')).join('');
      return bits
        .padEnd(Math.ceil(bits.length / 5) * 5, '0')
        .replace(/.{5}/g, (five) => alphabet[parseInt(five, 2)]!);
    };
    it.each([
      ['base64 of a bare key id (28 characters)', b64(id)],
      ['base64 of a short password assignment', b64('password=gR89NYjK_2se')],
      [
        'base64 in groups of four',
        b64(`GITLAB_TOKEN=glpat-${'x7Kq2mZp9RtY4wVb1NcD'}`).replace(/.{4}(?!$)/g, '$& '),
      ],
      ['base32', base32(`ghp_${'nlJroRjRQKqJRf5uOFLdK1RDgpY9B41wtBUd'}`)],
      ['base64 of base64', b64(b64(id))],
    ])('flags %s', async (_how, encoded) => {
      // A named rule inside the decoded block, not the entropy heuristic on the encoded text.
      expect(
        (await rules(`blob: ${encoded}`)).filter((rule) => !rule.endsWith('high_entropy_string')),
      ).not.toEqual([]);
    });
  });

  describe('escaped tokens', () => {
    const token = `ghp_${'nlJroRjRQKqJRf5uOFLdK1RDgpY9B41wtBUd'}`;
    const each = (f: (char: string) => string): string => [...token].map(f).join('');
    const hex = (char: string): string => char.charCodeAt(0).toString(16).padStart(2, '0');
    it.each([
      ['\\u-escaped under a neutral key', `{"value":"${each((c) => `\\u00${hex(c)}`)}"}`],
      ['\\x-escaped', `const k = "${each((c) => `\\x${hex(c)}`)}";`],
      ['percent-encoded', `https://example.com/?ref=${each((c) => `%${hex(c).toUpperCase()}`)}`],
      ['as HTML hex entities', `<code>${each((c) => `&#x${hex(c)};`)}</code>`],
      [
        'as HTML decimal and named entities',
        `<td>${token.replace('_', '&lowbar;').replace(/n/g, '&#110;')}</td>`,
      ],
      ['percent-encoded twice', `?ref=${each((c) => `%25${hex(c)}`)}`],
    ])('flags a token %s', async (_how, text) => {
      expect(await rules(text)).toContain('secret/@secretlint/secretlint-rule-github');
    });

    it('flags a password written as a byte array of hex literals', async () => {
      const bytes = [...Buffer.from('dd+QYVf6#pmM')].map((byte) => `0x${byte.toString(16)}`).join(', ');
      expect(await rules(`static readonly byte[] Password = { ${bytes} };`)).not.toEqual([]);
    });

    it('leaves ordinary entities and percent-escapes alone', async () => {
      expect(
        await rules('<p>Tom &amp; Jerry&#39;s order&nbsp;%20#1234 &lt;b&gt; \\u00e9t\\u00e9</p>'),
      ).toEqual([]);
    });
  });

  describe('credentials stated in other languages and short forms', () => {
    it.each([
      ['German', 'das Passwort für den Drucker-Admin lautet YF7-mPq2-Rt9w, bitte'],
      ['French', 'le mot de passe est « Lune#Njjcy70 » (sensible à la casse)'],
      ['Spanish', 'la contraseña es tortuga.Hsynb34 y el usuario es tienda'],
      ['Italian', 'la password è Tkdqyw!559, rete "Magazzino"'],
      ['Portuguese', 'A senha do portal do fornecedor é eajn8096MV'],
      ['Dutch', 'Het wachtwoord van de beheerder is nu Hqgodh96?vi.'],
      ['Polish', 'Hasło do panelu sklepu to Bxfay_5983, login: admin'],
      ['Russian', 'Пароль от роутера в офисе: Xngxtl708#, логин admin'],
      ['Japanese', '管理画面のパスワードは「phz9422JHE」です'],
      ['pw for …:', 'pw for the vpn: sxipi384GZ (same as last quarter)'],
      ['creds: user / pass', 'creds: svc_backup / Pndbdge37$ in KeePass'],
      ['login is …, pass is …', 'login is admin, pass is vcso7416ev'],
      ['sign in as `user` with `…`', 'Sign in as `root` with `J#OMsD8QNj~B` and change it'],
      ['a Wi-Fi QR payload', 'Scan this: WIFI:T:WPA;S:Warehouse-5G;P:umop741FWY!;;'],
    ])('flags a password stated in %s', async (_language, text) => {
      expect(await rules(text)).toContain('secret/credential_in_prose');
    });

    it.each([
      'Das Passwort ist case-sensitive und lautet nicht mehr wie früher.',
      'la contraseña es obligatoria; le mot de passe est « trop court »',
      'Password reset for your account: click the link we sent.',
      'パスワードは12文字以上である必要があります。',
      'login is required, pass is valid for 30 days',
      'Het wachtwoord is nu gewijzigd.',
      'Sign in as `root` with `your password` from the welcome mail.',
    ])('leaves "%s" alone', async (text) => {
      expect(await rules(text)).toEqual([]);
    });
  });

  describe('markup inside a token', () => {
    const token = `ghp_${'vbhfI5a3hTRisGpxLx7wbFOxv6xx4z3BLby8'}`;
    it.each([
      ['markdown emphasis', `**${token.slice(0, 12)}**${token.slice(12, 28)}*${token.slice(28)}*`],
      ['escaped underscores', token.replace('_', '\\_')],
      ['<wbr> tags', `<code>${token.slice(0, 16)}<wbr>${token.slice(16)}</code>`],
      ['ANSI colours', `\u001B[1;32m${token.slice(0, 10)}\u001B[0m\u001B[1;32m${token.slice(10)}\u001B[0m`],
    ])('flags a token split by %s', async (_how, text) => {
      expect(await rules(`Token: ${text}`)).toContain('secret/@secretlint/secretlint-rule-github');
    });
  });

  describe('a token in two halves', () => {
    it('flags a token whose halves are given in one sentence', async () => {
      const text = 'the first half is ghp_JsTtNppfXXc7kCi8 and the rest is 0pG7StdL3VdnNY3JppOd, join them';
      expect(await rules(text)).toContain('secret/@secretlint/secretlint-rule-github');
    });

    it('leaves a prefix followed by an unrelated word with digits alone', async () => {
      expect(
        await rules('tokens start with ghp_abcd and are rotated every 90days, see ticket ABC12345'),
      ).toEqual([]);
    });
  });

  describe('provider formats', () => {
    it('flags a Telegram bot token in an API URL and a Discord webhook URL', async () => {
      const telegram = `https://api.telegram.org/bot9016872362:${'AARlm_0H6k5xByMC8iaZXK0I6xJEl2NSkEm'}/sendMessage`;
      const discord = `hxxps://discord.com/api/webhooks/1003895334281414167/${'aZTub_A9JTSVglken_RfHlpNHzPJ9OPtX2c19KsxzMtnjUHF4E1JMo7jYjAX_Z6zDn0l'}`;
      expect(await rules(telegram)).toContain('secret/telegram_bot_token');
      expect(await rules(discord)).toContain('secret/discord_webhook_url');
    });

    it('leaves a time with a long number and a webhook documentation path alone', async () => {
      expect(
        await rules('call 1234567890:AA is not a token, see discord.com/api/webhooks/{id}/{token}'),
      ).toEqual([]);
    });
  });
});
