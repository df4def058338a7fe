import { ALNUM, BASE32, BASE64URL, DIGITS, b64url, group, pem, rand, withLuhn } from './generators';

// ------------------------------------------- evasions (issue 20): secrets formatted to slip past a literal match

export interface Evasion {
  label: string;
  input: string;
  /** The flag it must get. */
  kind: string;
  rule: string;
}

const ZWSP = '\u200b';
const awsId = `AKIA${rand(701, 16, BASE32)}`;
const ghp = `ghp_${rand(702, 36)}`;
const stripe = `sk_live_${rand(703, 24)}`;
const google = `AIza${rand(704, 35, BASE64URL)}`;
const slack = `xoxb-${rand(705, 12, DIGITS)}-${rand(706, 13, DIGITS)}-${rand(707, 24)}`;
const jwt = [
  b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' })),
  b64url(JSON.stringify({ sub: 'user-5521', iat: 1716000000 })),
  rand(708, 43, BASE64URL),
].join('.');
const visa = withLuhn(`453914${rand(709, 9, DIGITS)}`);
const master = withLuhn(`542523${rand(710, 9, DIGITS)}`);
const amex = withLuhn(`3787${rand(711, 10, DIGITS)}`);
const password = `Tr0ub4dor&${rand(712, 3, DIGITS)}`;

/** Inserts `char` after every `every` characters. */
const sprinkle = (value: string, char: string, every = 4): string =>
  value.replace(new RegExp(`(.{${every}})(?=.)`, 'gsu'), `$1${char}`);
/** ASCII letters and digits as their fullwidth forms. */
const fullwidth = (value: string): string =>
  value.replace(/[!-~]/g, (c) => String.fromCodePoint(c.charCodeAt(0) - 0x21 + 0xff01));
/** ASCII letters and digits as mathematical bold forms. */
const mathBold = (value: string): string =>
  value.replace(/[A-Z0-9]/g, (c) =>
    String.fromCodePoint(/\d/.test(c) ? 0x1d7ce + Number(c) : 0x1d400 + c.charCodeAt(0) - 65),
  );
const splitAt = (value: string, at: number, by: string): string =>
  `${value.slice(0, at)}${by}${value.slice(at)}`;
const hex = (value: string, sep = ''): string =>
  [...Buffer.from(value)].map((b) => b.toString(16).padStart(2, '0')).join(sep);
const wrap = (value: string, width: number): string =>
  value.match(new RegExp(`.{1,${width}}`, 'g'))!.join('\n');
const rsaPem = pem('RSA PRIVATE KEY', 720);
const sshPem = pem('OPENSSH PRIVATE KEY', 730);

const aws = (label: string, input: string): Evasion => ({
  label,
  input,
  kind: 'secret',
  rule: 'aws_access_key_id',
});
const github = (label: string, input: string): Evasion => ({
  label,
  input,
  kind: 'secret',
  rule: '@secretlint/secretlint-rule-github',
});
const card = (label: string, input: string): Evasion => ({
  label,
  input,
  kind: 'card_number',
  rule: 'luhn_card_number',
});
const prose = (label: string, input: string): Evasion => ({
  label,
  input,
  kind: 'secret',
  rule: 'credential_in_prose',
});
const key = (label: string, input: string): Evasion => ({
  label,
  input,
  kind: 'private_key',
  rule: 'pem_private_key',
});

export const EVASIONS: Evasion[] = [
  aws('AWS key, zero-width space inside', `upload key ${splitAt(awsId, 6, ZWSP)} for the nightly job`),
  aws('AWS key, zero-width spaces throughout', `key: ${sprinkle(awsId, ZWSP, 2)}`),
  aws('AWS key, zero-width joiner', `key ${splitAt(awsId, 4, '\u200d')}`),
  aws('AWS key, soft hyphen', `key ${splitAt(awsId, 10, '\u00ad')}`),
  aws('AWS key, word joiner', `key ${splitAt(awsId, 8, '\u2060')}`),
  aws('AWS key, BOM inside', `key ${splitAt(awsId, 12, '\ufeff')}`),
  aws('AWS key, right-to-left override inside', `key ${splitAt(awsId, 3, '\u202e')}`),
  aws('AWS key, fullwidth letters', `the uploader uses ${fullwidth(awsId)} today`),
  aws('AWS key, fullwidth prefix only', `key ${fullwidth('AKIA')}${awsId.slice(4)}`),
  aws('AWS key, mathematical bold letters', `key ${mathBold(awsId)}`),
  aws('AWS key, hex-encoded', `blob: ${hex(`aws key id ${awsId} (uploader)`)}`),
  github('GitHub token, zero-width space', `token ${splitAt(ghp, 9, ZWSP)}`),
  github(
    'GitHub token, split over two lines',
    `Here is the token: ${ghp.slice(0, 20)}\n${ghp.slice(20)} thanks`,
  ),
  github('GitHub token, split with indentation', `token:\n    ${ghp.slice(0, 14)}\n    ${ghp.slice(14)}`),
  github('GitHub token, backslash continuation', `export T=${ghp.slice(0, 18)}\\\n${ghp.slice(18)}`),
  github('GitHub token, string concatenation', `const t = "${ghp.slice(0, 16)}" +\n  "${ghp.slice(16)}";`),
  github('GitHub token, fullwidth', `token ${fullwidth(ghp)}`),
  github(
    'GitHub token, base64-encoded',
    `config blob ${Buffer.from(`GITHUB_TOKEN=${ghp}\n`).toString('base64')}`,
  ),
  github('GitHub token, hex with colons', `dump ${hex(`token=${ghp}`, ':')}`),
  {
    label: 'Stripe key, zero-width space',
    input: `stripe ${splitAt(stripe, 8, ZWSP)}`,
    kind: 'secret',
    rule: 'stripe_secret_key',
  },
  {
    label: 'Stripe key, split over lines',
    input: `live key ${stripe.slice(0, 15)}\n${stripe.slice(15)}`,
    kind: 'secret',
    rule: 'stripe_secret_key',
  },
  {
    label: 'Google API key, zero-width non-joiner',
    input: `maps ${splitAt(google, 20, '\u200c')}`,
    kind: 'secret',
    rule: 'google_api_key',
  },
  {
    label: 'Slack token, fullwidth',
    input: `bot ${fullwidth(slack)}`,
    kind: 'secret',
    rule: '@secretlint/secretlint-rule-slack',
  },
  { label: 'JWT, zero-width spaces', input: `auth ${sprinkle(jwt, ZWSP, 30)}`, kind: 'secret', rule: 'jwt' },
  {
    label: 'JWT, split over lines',
    input: `auth ${jwt.slice(0, 40)}\n${jwt.slice(40)}`,
    kind: 'secret',
    rule: 'jwt',
  },
  key('PEM private key, base64-encoded on one line', `deploy: ${Buffer.from(rsaPem).toString('base64')}`),
  key(
    'PEM private key, base64-encoded and wrapped',
    `deploy key:\n${wrap(Buffer.from(rsaPem).toString('base64'), 76)}\n`,
  ),
  {
    label: 'OpenSSH private key, base64url-encoded',
    input: `key=${Buffer.from(sshPem).toString('base64url')}`,
    kind: 'private_key',
    rule: 'pem_private_key',
  },
  key('PEM private key, fullwidth dashes', rsaPem.replace(/-----/g, fullwidth('-----'))),
  {
    label: 'password assignment, base64-encoded',
    input: `env: ${Buffer.from(`DB_PASSWORD=${password}\nDB_USER=app\n`).toString('base64')}`,
    kind: 'secret',
    rule: 'password_assignment',
  },
  {
    label: 'password assignment, zero-width inside the key word',
    input: `pass${ZWSP}word = ${password}`,
    kind: 'secret',
    rule: 'password_assignment',
  },
  card('Visa, a space between every digit', `card ${visa.split('').join(' ')} exp 09/27`),
  card('Visa, dots between groups', `card ${group(visa, [4, 4, 4, 4], '.')}`),
  card('Mastercard, slashes between groups', `card ${group(master, [4, 4, 4, 4], '/')}`),
  card('Mastercard, digit pairs with dashes', `card ${group(master, [2, 2, 2, 2, 2, 2, 2, 2], '-')}`),
  card('Visa, zero-width spaces between groups', `card ${group(visa, [4, 4, 4, 4], ZWSP)}`),
  card('Visa, fullwidth digits', `card ${fullwidth(group(visa, [4, 4, 4, 4], ' '))}`),
  card('Amex, mixed separators', `amex ${visa === '' ? '' : group(amex, [4, 6, 5], ' - ')}`),
  card('Mastercard, underscores', `card ${group(master, [4, 4, 4, 4], '_')}`),
  card('Visa, two spaces between every digit', `card ${visa.split('').join('  ')}`),
  prose('admin password in prose', `FYI the admin password is ${password} until Friday.`),
  prose(
    'wifi passcode changed, quoted',
    `Our wifi passcode was changed to 'blue-heron-${rand(713, 2, DIGITS)}'`,
  ),
  prose(
    'root password reset to',
    `The root password has been reset to Spring${rand(714, 4, DIGITS)}! for now`,
  ),
  prose('use … as the password', `Just use hunter${rand(715, 3, DIGITS)} as the password for the kiosk.`),
  prose(
    'log in with password, quoted',
    `Log in as ops with password "x9!${rand(716, 8, ALNUM)}" and rotate it.`,
  ),
  prose('PIN code stated', `The door PIN code is ${rand(717, 6, '123456789')}.`),
  prose('password in curly quotes', `the vpn password is “${rand(718, 10, ALNUM)}”`),
  prose(
    'API key for staging is',
    `The API key for staging is ${rand(719, 12, 'abcdefghjk')}${rand(720, 4, DIGITS)}.`,
  ),
];
