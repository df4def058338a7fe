import { BASE64, pem, rand } from './generators';

// ---------------------------------------------------------------- look-alike negatives (at most 2 may be flagged)

export const NEGATIVES: { label: string; input: string }[] = [
  {
    label: 'AWS documentation example keys',
    input:
      'aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  },
  { label: 'UUID', input: 'Ticket 3f2b8c1e-9d4a-4e7b-8c2f-1a2b3c4d5e6f was escalated.' },
  { label: 'git SHA', input: 'Fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8 on main.' },
  {
    label: 'sha256 checksum',
    input: 'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  },
  { label: 'base64 inline image', input: `<img src="data:image/png;base64,${rand(200, 180, BASE64)}==">` },
  {
    label: 'order and tracking numbers',
    input: 'Order #A-20240518-7731 ships via UPS 1Z999AA10123456784; FedEx 771234567890.',
  },
  {
    label: 'phone numbers in a signature',
    input: 'Best,\nJane Doe\nAcme Corp | +1 (415) 555-0132 | mobile +44 7700 900123',
  },
  { label: 'a single email', input: 'Contact: jane.doe@acme-corp.com for renewals.' },
  {
    label: 'a few contacts in a note',
    input: 'Invite alice@acme-corp.com, bob@acme-corp.com and carol@partner.io to the review.',
  },
  { label: 'ISBNs', input: 'See ISBN 978-0-13-468599-1 and 9780134685991 (2nd edition).' },
  {
    label: 'money and dates prose',
    input: 'Please transfer the balance by Friday 2024-05-17; the invoice total is 1,234.56 EUR.',
  },
  { label: 'Stripe test card number', input: 'Use 4242 4242 4242 4242 with any future date in the sandbox.' },
  { label: 'Luhn-invalid 16 digits', input: 'Reference 4000 1234 5678 9011 from the bank statement.' },
  { label: 'account number without card prefix', input: 'Customer account 1234567890123456 was merged.' },
  {
    label: 'version strings',
    input: 'Upgraded node from v20.19.0 to v22.12.0; build 2024.05.18.1234-rc.2+sha.5114f85',
  },
  { label: 'masked password', input: 'username: admin\npassword: ********' },
  {
    label: 'env placeholders',
    input: 'DB_PASSWORD=${DB_PASSWORD}\napi_key: ${API_KEY}\nTOKEN=$(cat /run/secrets/token)',
  },
  {
    label: 'instruction placeholders',
    input: 'token: <your-token-here>\napi_key=YOUR_API_KEY\nclient_secret: changeme',
  },
  {
    label: 'URLs without credentials',
    input: 'Docs: https://docs.acme-corp.com/guide?page=2#setup and https://github.com/acme/infra',
  },
  {
    label: 'document link with a long id',
    input: 'Spec: https://docs.google.com/document/d/1aBcD3fGhIjKlMnOpQrStUvWxYz0123456789abcdEF/edit',
  },
  {
    label: 'URL with placeholder credentials',
    input: 'Format: postgres://user:password@localhost:5432/app or https://<user>:<token>@host',
  },
  {
    label: 'password policy prose',
    input: 'Reset your password at the portal. Passwords: at least 12 characters, one digit.',
  },
  { label: 'TypeScript type', input: 'interface Login {\n  username: string;\n  password: string;\n}' },
  {
    label: 'code reading the environment',
    input: 'const password = process.env.DB_PASSWORD;\nconst token = getToken(user);',
  },
  {
    label: 'OpenSSH public key',
    input: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${rand(210, 43, BASE64)} jane@laptop`,
  },
  { label: 'certificate block', input: pem('CERTIFICATE', 220) },
  {
    label: 'identifiers and slugs',
    input:
      'Class AbstractSingletonProxyFactoryBean2Impl lives in my-very-long-article-title-about-rotating-credentials-2024.',
  },
  {
    label: 'key and secret words in prose',
    input: 'Key: the Kubernetes secret: db-credentials holds the primary_key: id mapping.',
  },
  {
    label: 'reserved-domain test addresses',
    input: Array.from({ length: 12 }, (_, i) => `user${i}@example.com`).join(', '),
  },
  {
    label: 'hex colour and CSS',
    input: 'color: #ff00aa; background: url(/img/bg-2x.png); font-weight: 700;',
  },
  { label: 'status words after short keys', input: 'Build 118 - pass: failed\nToken: expired, secret: none' },
  {
    label: 'password reset prose with a link',
    input: 'Password reset link: https://id.acme-corp.com/reset (valid 24h). Passwords expire every 90 days.',
  },
];
