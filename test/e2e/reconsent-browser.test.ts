/**
 * Re-consent once in a real headless Chromium: the client receives the URL elicitation, the user
 * opens the URL, reads the consent page and clicks Allow, the browser lands on school-mcp's
 * loopback listener, and the call that needed the permission comes back with its result.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { describeInBrowser, launchBrowser } from '../helpers/browser.js';
import { MCP_TRANSPORTS, startMcpServer, type McpTestServer } from '../helpers/mcp-server.js';

type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
};

let browser: Browser;
describeInBrowser('consent in a real browser', () =>
  describe.each(MCP_TRANSPORTS)('over %s', (transport) => {
    let sandbox: RunningSandbox;
    let server: McpTestServer;
    const pages: Page[] = [];

    beforeAll(async () => {
      browser = await launchBrowser();
      sandbox = await startSandbox({ autoApprove: false });
      server = await startMcpServer({
        transport,
        args: ['--school', sandbox.url, '--no-browser', '--toolsets', 'coupons', '--consent-wait', '30'],
        capabilities: { elicitation: { url: {} } },
      });
      server.client.setRequestHandler('elicitation/create', async (request) => {
        const { url } = request.params as { url: string };
        const page = await browser.newPage();
        pages.push(page);
        await page.goto(url);
        await page.getByRole('button', { name: 'Allow' }).click();
        await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
        return { action: 'accept' };
      });
    });

    afterAll(async () => {
      await server?.close();
      await browser?.close();
      await sandbox?.close();
    });

    describe('re-consent in a real browser', () => {
      it('opens the elicited URL, clicks Allow on the consent page, and the coupon is created in the same call', async () => {
        const read = (await server.client.callTool({ name: 'list_coupons', arguments: {} })) as Result;
        expect(read.isError).toBeFalsy();
        expect(pages).toHaveLength(1);

        const created = (await server.client.callTool({
          name: 'create_coupon',
          arguments: { code: 'CHROMIUM10', discount_type: 'percent', percent_off: 10 },
        })) as Result;
        expect(created.isError, created.content.map((block) => block.text).join('\n')).toBeFalsy();
        expect(created.structuredContent?.['code']).toBe('CHROMIUM10');
        expect(pages).toHaveLength(2);
        const consented = new URL(pages[1]!.url());
        expect(consented.searchParams.get('code')).toBeTruthy();
        await expect(pages[1]!.locator('h1').textContent()).resolves.toBe('Signed in');
      });
    });
  }),
);
