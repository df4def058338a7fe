/**
 * Contract suites run on the real engines only when their URL is set. Otherwise the suite is registered as
 * skipped AND a line is written straight to stderr, so the skip is visible in every reporter.
 */
export function describeWhenEngine(envVar: string, title: string, body: (url: string) => void): void {
  const url = process.env[envVar];
  if (url) {
    describe(title, () => body(url));
    return;
  }
  process.stderr.write(`[contract] SKIPPED ${title}: set ${envVar} to run it against the real engine\n`);
  describe(title, () => {
    it.skip(`skipped: ${envVar} is not set`, () => undefined);
  });
}
