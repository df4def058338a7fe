/**
 * Cross-origin reads in a real headless Chromium (playwright-core, JavaScript on): a page served by another origin
 * fetches Cairn's public directory (allowed for any origin), and cannot read the connector API (not CORS-open);
 * with its origin in CAIRN_CORS_ORIGINS it reads an MCP answer and its X-Request-Id.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { chromiumPath, describeWithChromium } from '../support/chromium';
import { publishClient } from '../support/client-page-fixtures';
import { createConnector, createOrganization } from '../support/fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

const executablePath = chromiumPath();

describeWithChromium('cross-origin directory reads')(
  'cross-origin GET from a browser page (headless Chromium)',
  () => {
    let app: TestApp;
    let site: Server;
    let siteUrl: string;
    let browser: Browser;

    beforeAll(async () => {
      if (executablePath === null)
        throw new Error('CI=true but no chromium binary was found (.ci/run installs it)');
      app = await startTestApp();
      await publishClient(app.commands, { name: 'Harbor Cafe', slug: 'harbor-cafe' });
      // Another website: a different origin (another port on localhost) serving a blank page.
      site = createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end('<!doctype html><title>Another site</title><p>partner page</p>');
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      siteUrl = `http://localhost:${(site.address() as AddressInfo).port}/`;
      browser = await chromium.launch({ executablePath: executablePath ?? undefined, headless: true });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => site?.close(resolve));
      await app?.close();
    });

    it('the directory JSON is readable from another origin; the connector API is not', async () => {
      const page = await browser.newPage();
      await page.goto(siteUrl);
      const directory = await page.evaluate(async (url) => {
        const response = await fetch(url, { headers: { accept: 'application/json' } });
        const body = (await response.json()) as { clients: Array<{ slug: string }>; total: number };
        return {
          status: response.status,
          slugs: body.clients.map((client) => client.slug),
          total: body.total,
        };
      }, `${app.baseUrl}/api/cairn-client-pages?per_page=24`);
      expect(directory).toEqual({ status: 200, slugs: ['harbor-cafe'], total: 1 });

      const connector = await page.evaluate(async (url) => {
        try {
          await fetch(url, {
            method: 'POST',
            headers: { authorization: 'Bearer cairn_x', 'content-type': 'application/json' },
            body: '{"query":"x"}',
          });
          return 'read';
        } catch (error) {
          return `blocked: ${(error as Error).name}`;
        }
      }, `${app.baseUrl}/app/api/tool-connectors/v1/memory/search`);
      expect(connector).toBe('blocked: TypeError');
      await page.close();
    });

    it('with its origin in CAIRN_CORS_ORIGINS, the page reads an MCP answer and its X-Request-Id', async () => {
      const listed = await startTestApp({ CAIRN_CORS_ORIGINS: new URL(siteUrl).origin });
      try {
        const { organization_id } = await createOrganization(listed.commands, 'Browser MCP');
        const { token } = await createConnector(listed.commands, organization_id, ['memory_search']);
        const page = await browser.newPage();
        await page.goto(siteUrl);
        const answer = await page.evaluate(
          async ({ url, bearer }) => {
            const response = await fetch(url, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${bearer}`,
                accept: 'application/json, text/event-stream',
                'content-type': 'application/json',
                'x-request-id': 'browser-mcp-1',
              },
              body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
            });
            const body = (await response.json()) as { result: { tools: Array<{ name: string }> } };
            return {
              status: response.status,
              requestId: response.headers.get('x-request-id'),
              tools: body.result.tools.map((tool) => tool.name),
            };
          },
          { url: `${listed.baseUrl}/mcp`, bearer: token },
        );
        expect(answer).toEqual({
          status: 200,
          requestId: 'browser-mcp-1',
          tools: expect.arrayContaining(['memory_search']),
        });
        await page.close();
      } finally {
        await listed.close();
      }
    });
  },
);
