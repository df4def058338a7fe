// -------------------------- ordinary support text (issue 20): none of it may be flagged by the normalizing scanner

export const SUPPORT_TEXT: { label: string; input: string }[] = [
  {
    label: 'password reset steps',
    input: 'To reset your password, click "Forgot password" and follow the emailed link.',
  },
  {
    label: 'password rules',
    input: 'The password is case-sensitive and must be at least 12 characters long.',
  },
  {
    label: 'password was reset',
    input: 'Your password was reset yesterday; the token is required for the next step.',
  },
  {
    label: 'same password',
    input: 'Use the same password as before, or set a new one in Settings > Security.',
  },
  { label: 'PIN rules', input: 'The PIN must be 4 to 6 digits. The PIN is never sent by email.' },
  {
    label: 'password is expired',
    input: 'If the password is expired, the login page says so. The login is your email.',
  },
  {
    label: 'order numbers',
    input: 'Order 2024-05-18-7731 and order 2024-05-19-0042 were merged; refund issued 21 May.',
  },
  {
    label: 'phone numbers',
    input: 'Call us on +1 (415) 555-0132 or +44 20 7946 0958, weekdays 9:00 – 17:30.',
  },
  {
    label: 'times and dates',
    input: 'Open 08:30 – 12:00 and 13:00 – 18:00, closed 24.12.2025 and 01/01/2026.',
  },
  {
    label: 'a numbered list',
    input: 'Steps: 1. 2. 3. 4. 5. 6. 7. 8. 9. 10. 11. 12. 13. 14 — in that order.',
  },
  { label: 'version numbers', input: 'Fixed in 4.12.3.1809 and 5.0.0-rc.2; upgrade from 3.9.14 first.' },
  { label: 'emoji with joiners', input: 'Thanks so much! 👩‍👩‍👧‍👦 🏳️‍🌈 👍🏽 See you soon.' },
  {
    label: 'ligatures and fullwidth',
    input: 'The ﬁle is in the “Ｄｏｃｕｍｅｎｔｓ” folder, № 5, section ①.',
  },
  { label: 'accented text', input: 'Café crème à emporter — réservé au personnel, s’il vous plaît.' },
  { label: 'CJK text', input: '注文番号は下記の通りです。お問い合わせはサポートまで。' },
  { label: 'right-to-left text', input: 'شكرا لتواصلك معنا. سنرد خلال يومين.' },
  { label: 'zero-width in prose', input: 'Please\u200bcheck the attach\u00adment and con\u200dfirm.' },
  {
    label: 'tracking number',
    input: 'Tracking: 1Z 999 AA1 01 2345 6784 (UPS), 9400 1000 0000 0000 0000 00 (USPS).',
  },
  { label: 'invoice and SKU', input: 'Invoice INV-2025-000123, SKU BLU-HERON-XL-2024, qty 3.' },
  { label: 'wrapped identifiers', input: 'Reference ticket-2024-0518\nfollow-up-0042 in the queue.' },
  { label: 'wrapped order lines', input: 'Items:\n  order_line_1 heron mug\n  order_line_2 heron tee' },
  { label: 'IBAN (not a card)', input: 'Pay to GB33 BUKB 2020 1555 5555 55, reference INV-2025-000123.' },
  { label: 'UUID', input: 'Request id 3f2b8c1e-9d4a-4e7b-8c2f-1a2b3c4d5e6f failed once.' },
  { label: 'short base64 word', input: 'The header says Content-Encoding: gzip and X-Trace: YWJjZGVm.' },
  { label: 'hex colour codes', input: 'Brand colours: #1a2b3c, #ffcc00, #00aa88 and #333333.' },
  {
    label: 'login help',
    input: 'The login page is at https://example.com/login and the login is your email address.',
  },
  { label: 'API key help', input: 'The API key is shown once; the API key for staging is in the dashboard.' },
  { label: 'card last four', input: 'The card ending in 4242 was charged €49.00 on 3 March.' },
  { label: 'measurements', input: 'Dimensions 120 x 80 x 45 cm, 12.5 kg; shipping 3 – 5 days.' },
  {
    label: 'support signature',
    input: 'Best,\nDana Whitfield\nCustomer Success | Acme Corp\nMon–Fri 9–5 CET',
  },
];
