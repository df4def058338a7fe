import {
  ALNUM,
  BASE32,
  BASE64,
  BASE64URL,
  DIGITS,
  LOWER,
  UPPER,
  b64url,
  group,
  pem,
  rand,
  withLuhn,
} from './generators';

// ---------------------------------------------------------------- positives (must ALL be flagged, nothing echoed)

export interface Positive {
  label: string;
  input: string;
  /** Values that must never appear in any flag's message or field. */
  secrets: string[];
  kind: string;
  /** Acceptable rules (any of); omitted = any rule of the right kind. */
  rules?: string[];
}

const awsId = `AKIA${rand(1, 16, BASE32)}`;
const awsSecret = rand(2, 40, BASE64);
const ghp = `ghp_${rand(3, 36)}`;
const ghFine = `github_pat_${rand(4, 82, `${ALNUM}_`)}`;
const slack = `xoxb-${rand(5, 12, DIGITS)}-${rand(6, 13, DIGITS)}-${rand(7, 24)}`;
const slackHook = `https://hooks.slack.com/services/T${rand(8, 10, UPPER + DIGITS)}/B${rand(9, 10, UPPER + DIGITS)}/${rand(10, 24)}`;
const stripe = `sk_live_${rand(11, 24)}`;
const google = `AIza${rand(12, 35, BASE64URL)}`;
const openai = `sk-proj-${rand(13, 74, BASE64URL)}T3BlbkFJ${rand(14, 74, BASE64URL)}`;
const anthropic = `sk-ant-api03-${rand(15, 93, BASE64URL)}AA`;
const npmToken = `npm_${rand(16, 36)}`;
const sendgrid = `SG.${rand(17, 22, BASE64URL)}.${rand(18, 43, BASE64URL)}`;
const telegram = `${rand(19, 9, DIGITS).replace(/^0/, '7')}:AA${rand(20, 33, BASE64URL)}`;
const azureKey = `${rand(21, 86, BASE64)}==`;
const jwt = [
  b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' })),
  b64url(JSON.stringify({ sub: 'user-8841', name: 'Dana Whitfield', iat: 1716000000 })),
  rand(22, 43, BASE64URL),
].join('.');
const dbPass = `${rand(23, 10)}!`;
const gitPass = rand(24, 14);
const vpnPass = `Tr0ub4dor&${rand(25, 3, DIGITS)}`;
const clientSecret = rand(26, 32, `${ALNUM}_-`);
const wpKey = `${rand(27, 20, `${ALNUM}!#%^*()[]{}|;:,.<>`)}${rand(28, 20)}`;
const bearer = rand(29, 40, `${ALNUM}._-`);
const entropy = rand(30, 48, ALNUM);
const bcrypt = `$2b$12$${rand(31, 53, `${ALNUM}./`)}`;
const visa = withLuhn(`453914${rand(32, 9, DIGITS)}`);
const master = withLuhn(`542523${rand(33, 9, DIGITS)}`);
const amex = withLuhn(`3787${rand(34, 10, DIGITS)}`);
const netrcPass = rand(35, 12);
const basicPair = Buffer.from(`ops:${rand(36, 12)}`).toString('base64');
const firstNames = [
  'olivia',
  'liam',
  'emma',
  'noah',
  'ava',
  'mia',
  'lucas',
  'amelia',
  'ethan',
  'isla',
  'leo',
  'zoe',
];
const emails = firstNames.map(
  (name, i) => `${name}.${rand(40 + i, 5, LOWER)}@${i % 2 ? 'gmail.com' : 'acme-retail.co.uk'}`,
);
const phones = firstNames.map((_, i) => `+1 415-${rand(60 + i, 3, '23456789')}-${rand(80 + i, 4, DIGITS)}`);

export const POSITIVES: Positive[] = [
  {
    label: 'AWS access key ID in prose',
    input: `Use key id ${awsId} for the uploader.`,
    secrets: [awsId],
    kind: 'secret',
    rules: ['aws_access_key_id'],
  },
  {
    label: 'AWS secret access key (credentials file)',
    input: `[default]\naws_secret_access_key = ${awsSecret}\n`,
    secrets: [awsSecret],
    kind: 'secret',
  },
  {
    label: 'GitHub classic token',
    input: `export GITHUB_TOKEN=${ghp}`,
    secrets: [ghp],
    kind: 'secret',
    rules: ['@secretlint/secretlint-rule-github'],
  },
  {
    label: 'GitHub fine-grained token',
    input: `token is ${ghFine}`,
    secrets: [ghFine],
    kind: 'secret',
    rules: ['@secretlint/secretlint-rule-github'],
  },
  {
    label: 'Slack bot token',
    input: `The bot uses ${slack} to post.`,
    secrets: [slack],
    kind: 'secret',
    rules: ['@secretlint/secretlint-rule-slack'],
  },
  {
    label: 'Slack incoming webhook',
    input: `Alerts go to ${slackHook}`,
    secrets: [slackHook],
    kind: 'secret',
    rules: ['@secretlint/secretlint-rule-slack'],
  },
  {
    label: 'Stripe live secret key',
    input: `stripe: ${stripe}`,
    secrets: [stripe],
    kind: 'secret',
    rules: ['stripe_secret_key'],
  },
  {
    label: 'Google API key',
    input: `maps key ${google} (restricted?)`,
    secrets: [google],
    kind: 'secret',
    rules: ['google_api_key'],
  },
  {
    label: 'OpenAI project key',
    input: `OPENAI_API_KEY="${openai}"`,
    secrets: [openai],
    kind: 'secret',
    rules: ['@secretlint/secretlint-rule-openai'],
  },
  {
    label: 'Anthropic API key',
    input: `key: ${anthropic}`,
    secrets: [anthropic],
    kind: 'secret',
    rules: ['@secretlint/secretlint-rule-anthropic'],
  },
  {
    label: 'npm access token',
    input: `publish with ${npmToken}`,
    secrets: [npmToken],
    kind: 'secret',
    rules: ['@secretlint/secretlint-rule-npm'],
  },
  {
    label: 'SendGrid API key',
    input: `mailer ${sendgrid}`,
    secrets: [sendgrid],
    kind: 'secret',
    rules: ['@secretlint/secretlint-rule-sendgrid'],
  },
  {
    label: 'Telegram bot token',
    input: `bot ${telegram}`,
    secrets: [telegram],
    kind: 'secret',
    rules: ['telegram_bot_token'],
  },
  {
    label: 'Azure storage connection string',
    input: `DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey=${azureKey};EndpointSuffix=core.windows.net`,
    secrets: [azureKey],
    kind: 'secret',
  },
  {
    label: 'RSA private key (PEM)',
    input: `Here is the deploy key:\n${pem('RSA PRIVATE KEY', 100)}\n`,
    secrets: [rand(100, 64, BASE64)],
    kind: 'private_key',
  },
  {
    label: 'OpenSSH private key',
    input: pem('OPENSSH PRIVATE KEY', 110),
    secrets: [rand(110, 64, BASE64)],
    kind: 'private_key',
  },
  {
    label: 'PGP private key block',
    input: pem('PGP PRIVATE KEY BLOCK', 120),
    secrets: [rand(120, 64, BASE64)],
    kind: 'private_key',
    rules: ['pgp_private_key'],
  },
  {
    label: 'JWT',
    input: `Authorization header was ${jwt} yesterday`,
    secrets: [jwt],
    kind: 'secret',
    rules: ['jwt'],
  },
  {
    label: 'password in database URL',
    input: `DATABASE_URL=postgres://app:${dbPass}@db.internal:5432/app`,
    secrets: [dbPass],
    kind: 'secret',
  },
  {
    label: 'password in git remote URL',
    input: `git clone https://deploy:${gitPass}@git.acme-corp.com/ops/infra.git`,
    secrets: [gitPass],
    kind: 'secret',
  },
  {
    label: 'password in a note',
    input: `The office VPN password: ${vpnPass}\nAsk IT for access.`,
    secrets: [vpnPass],
    kind: 'secret',
    rules: ['password_assignment'],
  },
  {
    label: 'client secret in JSON',
    input: `{"client_id": "web-portal", "client_secret": "${clientSecret}"}`,
    secrets: [clientSecret],
    kind: 'secret',
  },
  {
    label: 'PHP define of an auth key',
    input: `define('AUTH_KEY', '${wpKey}');`,
    secrets: [wpKey],
    kind: 'secret',
  },
  {
    label: 'bearer token header',
    input: `curl -H "Authorization: Bearer ${bearer}" https://api.acme-corp.com/v1/orders`,
    secrets: [bearer],
    kind: 'secret',
  },
  {
    label: 'bare high-entropy string',
    input: `backup code ${entropy}`,
    secrets: [entropy],
    kind: 'secret',
    rules: ['high_entropy_string'],
  },
  {
    label: 'bcrypt hash',
    input: `admin row: ('admin', '${bcrypt}')`,
    secrets: [bcrypt],
    kind: 'password_hash',
    rules: ['bcrypt_hash'],
  },
  {
    label: 'Visa card, spaced',
    input: `Customer paid with ${group(visa, [4, 4, 4, 4], ' ')} exp 04/27`,
    secrets: [group(visa, [4, 4, 4, 4], ' '), visa],
    kind: 'card_number',
    rules: ['luhn_card_number'],
  },
  {
    label: 'Mastercard, dashed',
    input: `card=${group(master, [4, 4, 4, 4], '-')}`,
    secrets: [group(master, [4, 4, 4, 4], '-'), master],
    kind: 'card_number',
  },
  {
    label: 'Amex, 4-6-5',
    input: `Amex ${group(amex, [4, 6, 5], ' ')} on file`,
    secrets: [group(amex, [4, 6, 5], ' '), amex],
    kind: 'card_number',
  },
  {
    label: '.netrc credentials',
    input: `machine ftp.acme-corp.com login backup password ${netrcPass}`,
    secrets: [netrcPass],
    kind: 'secret',
  },
  {
    label: 'HTTP Basic header',
    input: `Authorization: Basic ${basicPair}`,
    secrets: [basicPair],
    kind: 'secret',
  },
  {
    label: 'customer email dump',
    input: `name,email,plan\n${emails.map((e, i) => `${firstNames[i]},${e},pro`).join('\n')}`,
    secrets: emails,
    kind: 'personal_data_dump',
    rules: ['email_address_dump'],
  },
  {
    label: 'customer phone dump',
    input: `Call list:\n${phones.map((p, i) => `- ${firstNames[i]}: ${p}`).join('\n')}`,
    secrets: phones,
    kind: 'personal_data_dump',
    rules: ['phone_number_dump'],
  },
];
