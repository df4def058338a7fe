import {
  clientPageSlug,
  publicWebsite,
  summaryText,
} from '../../../src/commands/client-pages/client-page-values';

const codeOf = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return (error as { code?: unknown }).code;
  }
  return null;
};

describe('client page values', () => {
  it('slugs: 3–64 characters of a-z, 0-9 and single inner hyphens, taken exactly as given', () => {
    for (const ok of ['abc', 'acme-dental', 'a1-b2-c3', 'x'.repeat(64)]) expect(clientPageSlug(ok)).toBe(ok);
    for (const bad of [
      'ab',
      'x'.repeat(65),
      'Acme',
      'acme_dental',
      '-acme',
      'acme-',
      'ac--me',
      ' acme',
      'acmé',
    ]) {
      expect(codeOf(() => clientPageSlug(bad))).toBe('validation_failed');
    }
  });

  it('summaries: whitespace folded and trimmed; 1–max characters; no control characters', () => {
    expect(summaryText('  A dental\n\tclinic  ', 'organization_summary', 600)).toBe('A dental clinic');
    expect(summaryText('é'.repeat(600), 'organization_summary', 600)).toHaveLength(600);
    expect(summaryText('😀'.repeat(600), 'organization_summary', 600)).toHaveLength(1200); // code points count
    expect(codeOf(() => summaryText('x'.repeat(601), 's', 600))).toBe('validation_failed');
    expect(codeOf(() => summaryText('   \n ', 's', 600))).toBe('validation_failed');
    expect(codeOf(() => summaryText('bell\u0007', 's', 600))).toBe('validation_failed');
    expect(codeOf(() => summaryText('nul\u0000x', 's', 600))).toBe('validation_failed');
  });

  it('publishing needs a public http(s) website: missing, local or private ones are refused', () => {
    expect(publicWebsite('https://acme-dental.com/')).toBe('https://acme-dental.com/');
    for (const bad of [
      null,
      'http://localhost:3000/',
      'http://10.0.0.5/',
      'http://intranet/',
      'https://acme.internal/',
    ]) {
      expect(codeOf(() => publicWebsite(bad))).toBe('organization_website_required');
    }
  });
});
