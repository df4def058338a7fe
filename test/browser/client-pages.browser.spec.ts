/**
 * The public client pages in a real headless Chromium (Debian's `chromium`, driven by playwright-core), with
 * JavaScript turned off: a visitor searches, sorts, pages through the directory and opens a client's page.
 * Screenshots go to test/artifacts/ (git-ignored).
 *
 * Without a Chromium binary the suite is skipped with a visible line, except under CI (CI=true), where a
 * missing browser is a failure: `.ci/run` installs Debian's `chromium` when it is missing.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { chromiumPath, describeWithChromium } from '../support/chromium';
import { publishClient, PUBLIC_URL } from '../support/client-page-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

const ARTIFACTS = join(__dirname, '..', 'artifacts');
const TREES = ['Alder', 'Birch', 'Cedar', 'Douglas', 'Elm', 'Fir', 'Ginkgo', 'Hazel', 'Ivy', 'Juniper'];

const executablePath = chromiumPath();
const describeInBrowser = describeWithChromium('public client pages');

/** 25 published pages: organizations named after trees (2–3 per tree), each with a website and a chatbot. */
async function publishDirectory(app: TestApp): Promise<void> {
  for (let n = 0; n < 25; n++) {
    const tree = TREES[n % TREES.length];
    const name = `${tree} Studio ${n + 1}`;
    await publishClient(app.commands, {
      name,
      slug: `${tree.toLowerCase()}-studio-${n + 1}`,
      organizationSummary: `${name} designs gardens around ${tree.toLowerCase()} trees.`,
      assistantUseSummary: `Visitors ask the ${tree.toLowerCase()} helper about planting seasons and prices.`,
    });
  }
}

async function names(page: Page): Promise<string[]> {
  return page.getByTestId('client-link').allTextContents();
}

describeInBrowser('public client pages in headless Chromium (no JavaScript)', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];
  const failedRequests: string[] = [];

  beforeAll(async () => {
    if (executablePath === null)
      throw new Error('CI=true but no chromium binary was found (.ci/run installs it)');
    mkdirSync(ARTIFACTS, { recursive: true });
    app = await startTestApp({ CAIRN_PUBLIC_URL: PUBLIC_URL });
    await publishDirectory(app);
    browser = await chromium.launch({ executablePath, headless: true });
    context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1200, height: 900 } });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) failedRequests.push(`${response.status()} ${response.url()}`);
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.close();
  });

  it('shows the directory: title, canonical link, summary, the first 12 clients by name, styles loaded', async () => {
    const stylesheet = page.waitForResponse((response) =>
      response.url().endsWith('/clients/assets/site.css'),
    );
    const response = await page.goto(`${app.baseUrl}/clients`);
    expect(response?.status()).toBe(200);
    expect((await stylesheet).status()).toBe(200);
    await expect(page.title()).resolves.toMatch(/client/i);
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(canonical).toBe(`${PUBLIC_URL}/clients`);
    expect(await page.locator('meta[property="og:url"]').getAttribute('content')).toBe(canonical);
    expect(await page.getByTestId('results-summary').textContent()).toContain('Showing 1–12 of 25 clients');
    const firstPage = await names(page);
    expect(firstPage).toHaveLength(12);
    expect(firstPage).toEqual([...firstPage].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    // Landmarks and labels a screen reader relies on.
    await expect(page.getByRole('main').count()).resolves.toBe(1);
    await expect(page.getByRole('search').count()).resolves.toBe(1);
    await expect(page.getByLabel(/search/i).count()).resolves.toBeGreaterThan(0);
    await page.screenshot({ path: join(ARTIFACTS, 'client-pages-directory.png'), fullPage: true });
  });

  it('searches through the form (GET, no script) and sorts the results', async () => {
    await page.getByTestId('search-input').fill('cedar');
    await page.getByTestId('sort-select').selectOption('newest');
    await Promise.all([page.waitForURL(/\/clients\?/), page.getByTestId('search-submit').click()]);
    const url = new URL(page.url());
    expect(url.searchParams.get('q')).toBe('cedar');
    expect(url.searchParams.get('sort')).toBe('newest');
    const found = await names(page);
    // Cedar Studio 3, 13 and 23, newest first.
    expect(found).toEqual(['Cedar Studio 23', 'Cedar Studio 13', 'Cedar Studio 3']);
    expect(await page.getByTestId('search-input').inputValue()).toBe('cedar');
    await page.screenshot({ path: join(ARTIFACTS, 'client-pages-search.png'), fullPage: true });

    await page.getByTestId('search-input').fill('no such studio anywhere');
    await Promise.all([page.waitForURL(/no\+such|no%20such/), page.getByTestId('search-submit').click()]);
    await expect(page.getByTestId('no-results').isVisible()).resolves.toBe(true);
    expect(await names(page)).toEqual([]);
  });

  it('pages through the directory: page 2 and 3 hold the rest, no client twice, the current page marked', async () => {
    await page.goto(`${app.baseUrl}/clients`);
    const seen = await names(page);
    await Promise.all([page.waitForURL(/page=2/), page.getByTestId('pagination-next').click()]);
    expect(await page.getByTestId('pagination-page-2').getAttribute('aria-current')).toBe('page');
    seen.push(...(await names(page)));
    await Promise.all([page.waitForURL(/page=3/), page.getByTestId('pagination-page-3').click()]);
    const last = await names(page);
    expect(last).toHaveLength(1);
    seen.push(...last);
    expect(new Set(seen).size).toBe(25);
    expect(await page.getByTestId('results-summary').textContent()).toContain('Showing 25–25 of 25 clients');
    await page.screenshot({ path: join(ARTIFACTS, 'client-pages-last-page.png'), fullPage: true });
  });

  it('opens a client page: summaries, chatbot, published date, website link, meta tags', async () => {
    await page.goto(`${app.baseUrl}/clients?q=juniper`);
    await Promise.all([
      page.waitForURL(/\/clients\/juniper-studio-10$/),
      page.getByTestId('client-link').first().click(),
    ]);
    expect(await page.getByTestId('client-name').textContent()).toBe('Juniper Studio 10');
    expect(await page.getByTestId('chatbot-name').textContent()).toBe('Juniper Studio 10 assistant');
    expect(await page.getByTestId('organization-summary').textContent()).toBe(
      'Juniper Studio 10 designs gardens around juniper trees.',
    );
    expect(await page.getByTestId('assistant-use-summary').textContent()).toContain('planting seasons');
    expect(await page.getByTestId('published-at').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const website = page.getByTestId('website-link');
    expect(await website.getAttribute('href')).toBe('https://juniper-studio-10.example.com/');
    expect(await website.getAttribute('rel')).toContain('noopener');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(
      `${PUBLIC_URL}/clients/juniper-studio-10`,
    );
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toContain(
      'Juniper Studio 10',
    );
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBeTruthy();
    await page.screenshot({ path: join(ARTIFACTS, 'client-pages-detail.png'), fullPage: true });

    await Promise.all([page.waitForURL(/\/clients$/), page.getByTestId('back-link').click()]);
    expect(await names(page)).toHaveLength(12);
  });

  it('loaded every page and stylesheet without an error or a blocked resource', () => {
    expect(failedRequests).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
