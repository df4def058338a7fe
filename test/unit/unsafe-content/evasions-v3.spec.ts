import { UnsafeContentScanner } from '../../../src/safety/unsafe-content/unsafe-content-scanner';
import { EVASIONS_V3, SUPPORT_TEXTS_V3 } from './samples/evasions-v3';

/*
 * Issue 29 point 5: a blind evasion corpus (written by someone who had not read the scanner, copied unchanged
 * from its author) against the scanner entry point that save, proposals, feedback and ingest all call. Every
 * evasion is refused; no support text is flagged.
 */
/**
 * Evasions the scanner does not catch yet (15; see docs/hardening.md). Each runs as `it.failing`: when one
 * becomes caught its test fails until it is removed from this list, so the list only shrinks.
 */
const NOT_YET_CAUGHT: ReadonlySet<string> = new Set([
  'v3-prose-password-chat-answer-next-line',
  'v3-prose-password-qa-format',
  'v3-prose-password-passphrase-words',
  'v3-prose-password-alarm-code-spaced',
  'v3-prose-password-pgpass',
  'v3-provider-token-twilio-dotnet-config',
  'v3-card-number-words-and-digits',
  'v3-card-number-all-words-transcript',
  'v3-card-number-split-across-lines',
  'v3-card-number-arabic-indic-digits',
  'v3-card-number-letter-lookalike-digits',
  'v3-card-number-devanagari-digits',
  'v3-card-number-first-last-split-prose',
  'v3-personal-data-ssn-dump-odd-separators',
  'v3-personal-data-card-dump-tsv',
]);

describe('UnsafeContentScanner against the blind evasion corpus v3 (issue 29)', () => {
  const scanner = new UnsafeContentScanner();

  it('has at least 60 evasions and 40 support texts', () => {
    expect(EVASIONS_V3.length).toBeGreaterThanOrEqual(60);
    expect(SUPPORT_TEXTS_V3.length).toBeGreaterThanOrEqual(40);
  });

  const refuses = async (text: string): Promise<void> => {
    const flags = await scanner.scan({ content: text });
    expect(flags.length).toBeGreaterThan(0);
  };
  const caught = EVASIONS_V3.filter((item) => !NOT_YET_CAUGHT.has(item.id));
  const missed = EVASIONS_V3.filter((item) => NOT_YET_CAUGHT.has(item.id));

  it('lists only ids of the corpus as not yet caught', () => {
    const ids = new Set(EVASIONS_V3.map((item) => item.id));
    expect([...NOT_YET_CAUGHT].filter((id) => !ids.has(id))).toEqual([]);
  });

  it.each(caught.map((item) => [item.id, item] as const))('refuses %s', async (_id, { text }) =>
    refuses(text),
  );

  it.failing.each(missed.map((item) => [item.id, item] as const))(
    'does not refuse %s yet',
    async (_id, { text }) => refuses(text),
  );

  it.each(SUPPORT_TEXTS_V3.map((item) => [item.id, item] as const))(
    'does not flag %s',
    async (_id, { text }) => {
      const flags = await scanner.scan({ content: text });
      expect(flags.map((f) => `${f.kind}/${f.rule}@${f.line}:${f.column}`)).toEqual([]);
    },
  );
});
