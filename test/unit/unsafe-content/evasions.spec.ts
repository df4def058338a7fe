import { UnsafeContentScanner } from '../../../src/safety/unsafe-content/unsafe-content-scanner';
import { EVASIONS } from './samples/evasions';
import { SUPPORT_TEXT } from './samples/support-text';

/*
 * Issue 20: the scanner normalizes before it matches. Every evasion (zero-width and invisible characters,
 * fullwidth and other compatibility forms, tokens split over lines, base64/hex-encoded key material, card numbers
 * with any separators, credentials stated in prose) is blocked with the flag it names; ordinary support text,
 * including text with ligatures, emoji joiners and zero-width characters, is not flagged at all.
 */
describe('UnsafeContentScanner against evasions (issue 20)', () => {
  const scanner = new UnsafeContentScanner();

  it('has at least 40 evasions and 30 support texts', () => {
    expect(EVASIONS.length).toBeGreaterThanOrEqual(40);
    expect(SUPPORT_TEXT.length).toBeGreaterThanOrEqual(30);
  });

  it.each(EVASIONS)('blocks $label as $kind / $rule', async ({ input, kind, rule }) => {
    const flags = await scanner.scan({ content: input });
    expect(flags.map((f) => `${f.kind}/${f.rule}`)).toContain(`${kind}/${rule}`);
  });

  it.each(SUPPORT_TEXT)('does not flag support text: $label', async ({ input }) => {
    const flags = await scanner.scan({ content: input });
    expect(flags.map((f) => `${f.kind}/${f.rule}@${f.line}:${f.column}`)).toEqual([]);
  });

  it('reports an evasion at its place in the original text', async () => {
    const flags = await scanner.scan({ content: EVASIONS[0]!.input });
    const flag = flags.find((f) => f.rule === 'aws_access_key_id')!;
    expect({ line: flag.line, column: flag.column, length: flag.length }).toEqual({
      line: 1,
      column: 'upload key '.length + 1,
      length: 21,
    });
  });
});
