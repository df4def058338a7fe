import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The Chromium binary: CHROMIUM_PATH, else `chromium` on PATH, else null. */
export function chromiumPath(): string | null {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return configured;
  try {
    const found = execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], {
      encoding: 'utf8',
    }).trim();
    return found !== '' && existsSync(found) ? found : null;
  } catch {
    return null;
  }
}

/**
 * `describe` when a browser test can run: Chromium is there, or CI=true (where a missing browser must fail, since
 * `.ci/run` installs it); else `describe.skip` with a visible line on stderr.
 */
export function describeWithChromium(what: string): jest.Describe {
  const runs = chromiumPath() !== null || process.env.CI === 'true';
  if (!runs)
    process.stderr.write(`[browser] SKIPPED ${what}: no chromium on PATH (apt-get install chromium)\n`);
  return runs ? describe : describe.skip;
}
