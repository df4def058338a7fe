import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  MAX_PROVIDER_RETRY_AFTER_MS,
  OUTCOME_POLICY,
  SYSTEM_STATUS_CODES,
} from '../../../src/commands/replies/outcome-policy';

/** The README's outcome table is a copy of the one outcome policy: every row, every column, in order. */
describe('README reply outcome table', () => {
  const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
  const start = readme.indexOf('<!-- outcome-policy:start -->');
  const end = readme.indexOf('<!-- outcome-policy:end -->');
  const rows = readme
    .slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('| ') && !/^\| (code|-)/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );

  it('has one row per code of the policy, in the policy order', () => {
    expect(start).toBeGreaterThan(0);
    expect(rows.map((row) => row[0])).toEqual([...SYSTEM_STATUS_CODES]);
  });

  it('states each row exactly as the policy does', () => {
    // The README states the bound once, beside the table.
    expect(readme).toContain(`bounded to ${MAX_PROVIDER_RETRY_AFTER_MS / 1000} s`);
    for (const [i, code] of SYSTEM_STATUS_CODES.entries()) {
      const p = OUTCOME_POLICY[code];
      expect({ code, row: rows[i].slice(1) }).toEqual({
        code,
        row: [
          p.retryable ? 'yes' : 'no',
          String(p.retry_after_ms),
          p.honors_provider_retry_after ? 'yes' : 'no',
          p.description,
        ],
      });
    }
  });
});
