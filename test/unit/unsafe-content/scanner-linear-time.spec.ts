import fc from 'fast-check';
import { adversarialInputs, run } from '../../../bench/scanner-inputs';
import {
  SCAN_BUDGET_EXCEEDED,
  UnsafeContentScanner,
} from '../../../src/safety/unsafe-content/unsafe-content-scanner';

/*
 * Issue 29 point 1: no scanner pattern may backtrack super-linearly. A 100,000-character field of any adversarial
 * shape scans in tens of milliseconds (bench: `npm run bench -- scanner`); the bound here is generous for a
 * loaded machine, and far below what a quadratic pattern takes at this length (seconds to hours). A scan that
 * passes the per-field budget fails closed with a `scan_budget_exceeded` flag.
 */
const LENGTH = 100_000;
const BOUND_MS = 1_500;

describe('UnsafeContentScanner stays linear on adversarial input (issue 29)', () => {
  const scanner = new UnsafeContentScanner();
  // The budget is not what keeps these fast: a budget flag fails the test.
  scanner.budgetMs = 60_000;

  async function timedScan(text: string): Promise<{ ms: number; rules: string[] }> {
    const started = performance.now();
    const flags = await scanner.scan({ content: text });
    return { ms: performance.now() - started, rules: flags.map((flag) => flag.rule) };
  }

  beforeAll(async () => {
    await scanner.scan({ content: 'warm-up' });
  });

  it.each(Object.entries(adversarialInputs(LENGTH)))(
    'scans 100,000 characters of %s within the bound',
    async (_name, text) => {
      const { ms, rules } = await timedScan(text);
      expect(rules).not.toContain(SCAN_BUDGET_EXCEEDED);
      expect(ms).toBeLessThan(BOUND_MS);
    },
    30_000,
  );

  it('scans generated long runs (prefix + run of one character class + suffix) within the bound', async () => {
    const pieces = [
      ' ',
      '\t',
      '\n',
      'a',
      'Z',
      '7',
      '_',
      '-',
      '.',
      '+',
      '/',
      '=',
      ':',
      '@',
      '"',
      "'",
      '\\',
      '$',
      '<',
    ];
    const unit = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 3 }).map((a) => a.join(''));
    const affix = fc.oneof(
      fc.constantFrom(
        '',
        'abcdef1',
        'password',
        'password is ',
        'token: ',
        '-----BEGIN ',
        'AKIA',
        'a://u:',
        '"k": "',
      ),
      fc.string({ maxLength: 12 }),
    );
    await fc.assert(
      fc.asyncProperty(affix, unit, affix, async (prefix, body, suffix) => {
        const text = prefix + run(body, LENGTH - prefix.length - suffix.length) + suffix;
        const { ms, rules } = await timedScan(text);
        expect(rules).not.toContain(SCAN_BUDGET_EXCEEDED);
        expect(ms).toBeLessThan(BOUND_MS);
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  it('refuses a field whose scan passes the budget (fail closed), naming the field', async () => {
    const strict = new UnsafeContentScanner();
    strict.budgetMs = 0;
    const flags = await strict.scan({ content: 'an ordinary note about a printer', title: '' });
    expect(flags).toEqual([
      expect.objectContaining({
        kind: SCAN_BUDGET_EXCEEDED,
        rule: SCAN_BUDGET_EXCEEDED,
        field: 'content',
        line: 1,
        column: 1,
        length: 'an ordinary note about a printer'.length,
      }),
    ]);
  });
});
