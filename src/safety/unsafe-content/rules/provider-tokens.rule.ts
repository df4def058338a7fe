import { forEachMatch, type RawFinding } from './finding';
import { isDocumentedExample, looksRandom } from './value-heuristics';

/**
 * Provider token formats that secretlint's recommended preset does not cover (or covers only behind an option:
 * its AWS access key ID scan is off by default). Patterns follow the providers' documented prefixes (the same
 * shapes gitleaks uses). Values marked as documentation examples (`…EXAMPLE…`) are skipped.
 */
interface TokenPattern {
  rule: string;
  description: string;
  pattern: RegExp;
  /** Which capture group is the token (0 = whole match). */
  group?: number;
  /** Extra check on the token. */
  accept?: (token: string) => boolean;
}

const TOKEN_PATTERNS: TokenPattern[] = [
  {
    rule: 'aws_access_key_id',
    description: 'AWS access key ID',
    pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z2-7]{16}\b/g,
  },
  {
    rule: 'telegram_bot_token',
    description: 'Telegram bot token',
    pattern: /(?<![\w-])(?:bot)?\d{8,10}:AA[0-9A-Za-z_-]{33}(?![\w-])/g,
  },
  {
    rule: 'discord_webhook_url',
    description: 'Discord webhook URL (its token grants posting)',
    pattern: /\bdiscord(?:app)?\.com\/api\/webhooks\/\d{17,20}\/[0-9A-Za-z_-]{60,80}(?![\w-])/g,
  },
  { rule: 'google_api_key', description: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![\w-])/g },
  {
    rule: 'google_oauth_client_secret',
    description: 'Google OAuth client secret',
    pattern: /\bGOCSPX-[0-9A-Za-z_-]{28}(?![\w-])/g,
  },
  {
    rule: 'stripe_secret_key',
    description: 'Stripe secret or restricted key',
    pattern: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{20,247}\b/g,
  },
  {
    rule: 'stripe_webhook_secret',
    description: 'Stripe webhook signing secret',
    pattern: /\bwhsec_[0-9A-Za-z]{24,}\b/g,
  },
  { rule: 'twilio_api_key', description: 'Twilio API key', pattern: /\bSK[0-9a-f]{32}\b/g },
  { rule: 'mailchimp_api_key', description: 'Mailchimp API key', pattern: /\b[0-9a-f]{32}-us\d{1,2}\b/g },
  { rule: 'mailgun_api_key', description: 'Mailgun API key', pattern: /\bkey-[0-9a-zA-Z]{32}\b/g },
  {
    rule: 'telegram_bot_token',
    description: 'Telegram bot token',
    pattern: /\b\d{8,10}:AA[0-9A-Za-z_-]{33}(?![\w-])/g,
  },
  {
    rule: 'discord_webhook_url',
    description: 'Discord webhook URL',
    pattern: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[\w-]{60,}/g,
  },
  {
    rule: 'microsoft_teams_webhook_url',
    description: 'Microsoft Teams webhook URL',
    pattern: /https:\/\/[\w-]+\.webhook\.office\.com\/webhookb2\/[\w@/-]{40,}/g,
  },
  { rule: 'digitalocean_token', description: 'DigitalOcean token', pattern: /\bdo[opr]_v1_[a-f0-9]{64}\b/g },
  {
    rule: 'pypi_token',
    description: 'PyPI upload token',
    pattern: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g,
  },
  { rule: 'rubygems_api_key', description: 'RubyGems API key', pattern: /\brubygems_[a-f0-9]{48}\b/g },
  {
    rule: 'square_token',
    description: 'Square access token',
    pattern: /\b(?:sq0atp|sq0csp|EAAA)[0-9A-Za-z_-]{22,60}\b/g,
  },
  { rule: 'dropbox_token', description: 'Dropbox access token', pattern: /\bsl\.[A-Za-z0-9_-]{130,}/g },
  {
    rule: 'atlassian_api_token',
    description: 'Atlassian API token',
    pattern: /\bATATT3[A-Za-z0-9_\-=]{150,}/g,
  },
  { rule: 'postman_api_key', description: 'Postman API key', pattern: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/g },
  { rule: 'newrelic_key', description: 'New Relic key', pattern: /\bNR(?:AK|II|AA)-[A-Z0-9]{27}\b/g },
  {
    rule: 'alibaba_access_key_id',
    description: 'Alibaba Cloud access key ID',
    pattern: /\bLTAI[a-zA-Z0-9]{20}\b/g,
  },
  {
    rule: 'age_secret_key',
    description: 'age secret key',
    pattern: /\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b/g,
  },
  {
    rule: 'facebook_access_token',
    description: 'Facebook access token',
    pattern: /\bEAA[A-Za-z0-9]{90,}\b/g,
  },
  { rule: 'heroku_api_key', description: 'Heroku API key', pattern: /\bHRKU-[0-9A-Za-z_-]{60}\b/g },
  {
    rule: 'doppler_token',
    description: 'Doppler token',
    pattern: /\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b/g,
  },
  {
    rule: 'azure_storage_account_key',
    description: 'Azure storage account key',
    pattern: /\bAccountKey=([A-Za-z0-9+/]{86}==)/g,
    group: 1,
  },
  {
    rule: 'azure_sas_token',
    description: 'Azure shared access signature',
    pattern: /[?&]sig=([A-Za-z0-9%+/]{40,}(?:%3D|=)*)/g,
    group: 1,
  },
  {
    rule: 'aws_presigned_signature',
    description: 'AWS pre-signed URL signature',
    pattern: /[?&]X-Amz-Signature=([a-f0-9]{64})/g,
    group: 1,
  },
  {
    rule: 'bearer_token',
    description: 'HTTP bearer token',
    pattern: /\bBearer\s+([A-Za-z0-9._~+/-]{20,}=*)/g,
    group: 1,
    accept: (token) => looksRandom(token, 20),
  },
  {
    rule: 'basic_auth_header',
    description: 'HTTP Basic authorization header',
    pattern: /\bAuthorization:\s*Basic\s+([A-Za-z0-9+/]{8,}={0,2})/gi,
    group: 1,
    accept: (token) => Buffer.from(token, 'base64').toString('utf8').includes(':'),
  },
];

export function detectProviderTokens(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  for (const { rule, description, pattern, group = 0, accept } of TOKEN_PATTERNS) {
    forEachMatch(text, pattern, (match) => {
      const token = match[group];
      if (token === undefined || isDocumentedExample(token)) return;
      if (accept && !accept(token)) return;
      const start = match.index + match[0].indexOf(token);
      findings.push({ kind: 'secret', rule, start, end: start + token.length, description });
    });
  }
  return findings;
}
