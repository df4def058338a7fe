/**
 * The reviewer's console in a real headless Chromium (Debian's `chromium`, driven by playwright-core) with
 * JavaScript off: an operator signs in and approves a proposal with the keyboard alone; the memory browser, a reply
 * receipt view and the connectors page render at 1280 and 390 px, without horizontal scrolling. Screenshots go to
 * test/artifacts/console/, or to docs/console/ with UPDATE_CONSOLE_SCREENSHOTS=1 (docs/admin.md).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ADMIN, operatorToken } from '../support/admin-fixtures';
import { chromiumPath, describeWithChromium } from '../support/chromium';
import { createConnector } from '../support/fixtures';
import { ALL_MEMORY, ingest, MEMORY } from '../support/memory-fixtures';
import { createReplyTenant } from '../support/reply-tenant';
import { startModelApp } from '../support/reply-fixtures';
import { http, type TestApp } from '../support/test-app';

/** docs/console/ when UPDATE_CONSOLE_SCREENSHOTS=1 (refreshing the docs' images), else test/artifacts/console/. */
const SHOTS =
  process.env.UPDATE_CONSOLE_SCREENSHOTS === '1'
    ? join(__dirname, '..', '..', 'docs', 'console')
    : join(__dirname, '..', 'artifacts', 'console');
const executablePath = chromiumPath();
const describeInBrowser = describeWithChromium('admin console');

/** Presses Tab until the focused element matches (at most `max` presses); fails when it never does. */
async function tabTo(
  page: Page,
  matches: (el: { tag: string; text: string; name: string }) => boolean,
  max = 60,
) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return {
        tag: el?.tagName.toLowerCase() ?? '',
        text: (el?.textContent ?? '').trim(),
        name: el?.getAttribute('name') ?? '',
      };
    });
    if (matches(focused)) return;
  }
  throw new Error('the element was never focused by Tab');
}

describeInBrowser('admin console in headless Chromium (no JavaScript, keyboard only)', () => {
  jest.setTimeout(180_000);
  let app: TestApp;
  let closeApp: () => Promise<void>;
  let browser: Browser;
  let token: string;
  let org: number;
  let proposalId: number;
  let itemId: number;
  let replyId: number;

  beforeAll(async () => {
    if (executablePath === null) throw new Error('CI=true but no chromium binary was found');
    mkdirSync(SHOTS, { recursive: true });
    // The shipped model double: the reply cites its evidence with quotes, and the reviewer checks them.
    ({ t: app, close: closeApp } = await startModelApp());
    token = await operatorToken(app, ['read', 'proposals:review', 'connectors:write'], 'Dana');
    const tenant = await createReplyTenant(app, 'Harbor Dental');
    org = tenant.organization_id;
    replyId = (await tenant.request(tenant.body('console-1'))).body.reply_id;
    const proposer = await createConnector(app.commands, org, ALL_MEMORY);
    const proposed = await http(app.baseUrl, 'POST', `${MEMORY}/proposals`, {
      token: proposer.token,
      body: {
        title: 'Saturday hours',
        content: 'The clinic opens on Saturdays from 9:00 to 13:00.\nEmergencies: call the main number.',
        proposed_policy: { customer_safe_candidate: true },
      },
    });
    proposalId = proposed.body.proposal_id;
    const doc = { document_key: 'prices', source_label: 'prices.md' };
    itemId = (
      await ingest(app.commands, org, 'Prices', 'A cleaning costs 80 euros.\nX-rays cost 40 euros.', doc)
    ).memory_item_id;
    await ingest(app.commands, org, 'Prices', 'A cleaning costs 85 euros.\nX-rays cost 40 euros.', doc);
    browser = await chromium.launch({ executablePath, headless: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await closeApp?.();
  });

  async function signedIn(width: number): Promise<Page> {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${app.baseUrl}/admin/console/login`);
    await page.fill('#token', token);
    await Promise.all([page.waitForURL(`${app.baseUrl}/admin/console`), page.press('#token', 'Enter')]);
    return page;
  }

  it('signs in and approves a proposal with the keyboard alone, at 1280 px', async () => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    const unauthenticated = await page.goto(`${app.baseUrl}/admin/console`);
    expect(unauthenticated?.url()).toBe(`${app.baseUrl}/admin/console/login`);
    await page.screenshot({ path: join(SHOTS, 'login-1280.png') });

    // The token field has focus on load: type, Enter.
    await page.keyboard.type(token);
    await Promise.all([page.waitForURL(`${app.baseUrl}/admin/console`), page.keyboard.press('Enter')]);
    const cookie = (await context.cookies()).find((c) => c.name === 'cairn_console');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin/console' });
    await expect(page.getByTestId('operator').textContent()).resolves.toBe('Dana');

    await tabTo(page, (el) => el.tag === 'a' && el.text.startsWith('Harbor Dental'));
    await Promise.all([page.waitForURL(/\/proposals$/), page.keyboard.press('Enter')]);
    await tabTo(page, (el) => el.tag === 'a' && el.text === 'Saturday hours');
    await Promise.all([
      page.waitForURL(new RegExp(`/proposals/${proposalId}$`)),
      page.keyboard.press('Enter'),
    ]);
    await expect(page.getByTestId('diff').textContent()).resolves.toContain(
      '+ The clinic opens on Saturdays',
    );
    await expect(page.getByTestId('policy').textContent()).resolves.toContain('customer_safe');
    await page.screenshot({ path: join(SHOTS, 'proposal-1280.png'), fullPage: true });

    // Audience: "internal" (the third option), then Approve.
    await tabTo(page, (el) => el.tag === 'select' && el.name === 'audience');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(page.locator('#audience').inputValue()).resolves.toBe('internal');
    await tabTo(page, (el) => el.tag === 'button' && el.text === 'Approve');
    await Promise.all([page.waitForURL(/done=/), page.keyboard.press('Enter')]);
    await expect(page.getByTestId('notice').textContent()).resolves.toContain('approved as internal');
    await expect(page.getByTestId('status').textContent()).resolves.toContain('approved');

    const stored = await http(app.baseUrl, 'GET', `${ADMIN}/organizations/${org}/proposals/${proposalId}`, {
      token,
    });
    expect(stored.body.proposal).toMatchObject({ status: 'approved' });
    expect(stored.body.proposal.approval.policy).toMatchObject({
      applied: { audience: 'internal' },
      override: 'internal',
    });
    await context.close();
  });

  it.each([1280, 390])(
    'shows memory, a revision diff, a reply receipt and connectors at %d px',
    async (width) => {
      const page = await signedIn(width);
      const base = `${app.baseUrl}/admin/console/orgs/${org}`;
      const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

      await page.goto(`${base}/memory`);
      await expect(page.getByTestId('total').textContent()).resolves.toMatch(/\d+ item/);
      expect(await fits()).toBe(true);
      await page.screenshot({ path: join(SHOTS, `memory-${width}.png`), fullPage: true });

      await page.goto(`${base}/memory/${itemId}`);
      await expect(page.getByTestId('content').textContent()).resolves.toContain('85 euros');
      await expect(page.getByTestId('diff').first().textContent()).resolves.toContain(
        '- A cleaning costs 80 euros.',
      );
      expect(await fits()).toBe(true);
      await page.screenshot({ path: join(SHOTS, `memory-item-${width}.png`), fullPage: true });

      await page.goto(`${base}/replies/${replyId}`);
      await expect(page.getByTestId('audit').textContent()).resolves.toContain('verifies');
      await expect(page.getByTestId('reply-status').innerText()).resolves.toBe('completed');
      await expect(page.getByTestId('evidence').textContent()).resolves.toContain(`item #`);
      await expect(page.getByTestId('quote').first().textContent()).resolves.toContain('Monday to Friday');
      expect(await fits()).toBe(true);
      await page.screenshot({ path: join(SHOTS, `reply-${width}.png`), fullPage: true });

      await page.goto(`${base}/connectors`);
      expect(await fits()).toBe(true);
      await page.screenshot({ path: join(SHOTS, `connectors-${width}.png`), fullPage: true });
      await page.goto(`${base}/proposals?status=approved`);
      expect(await fits()).toBe(true);
      await page.screenshot({ path: join(SHOTS, `proposals-${width}.png`), fullPage: true });
      await page.context().close();
    },
  );
});
