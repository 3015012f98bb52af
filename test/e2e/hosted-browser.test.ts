/**
 * One hosted sign-in in a real headless Chromium: the MCP SDK client registers and hands over
 * its authorization URL; the person clicks Allow on school-mcp's consent page, picks themselves on
 * the sandbox school's page and clicks Allow there, and the browser lands on the client's
 * redirect URI with a code the client exchanges; the tools then answer as that person.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SANDBOX_STAFF } from '@school-mcp/sandbox';
import { describeInBrowser, launchBrowser } from '../helpers/browser.js';
import { MemoryOAuthProvider } from '../helpers/memory-oauth-provider.js';
import { MAIN_JS } from '../helpers/mcp-stdio.js';
import { collectLines } from '../helpers/stderr-lines.js';

const REDIRECT = 'http://127.0.0.1:47012/callback';

let child: ChildProcess;
let browser: Browser;
let mcpUrl: URL;

describeInBrowser('hosted sign-in in a real browser', () => {
  beforeAll(async () => {
    child = spawn(process.execPath, [MAIN_JS, '--hosted', '--demo'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines = collectLines(child.stderr);
    mcpUrl = new URL(/MCP endpoint: +(\S+)/.exec(await lines.waitForLine(/MCP endpoint:/))![1]!);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });

  it('HOST-06 HOST-12 clicking Allow at school-mcp and at the school connects the MCP client as the person picked', async () => {
    const grace = SANDBOX_STAFF[1]!;
    const provider = new MemoryOAuthProvider(REDIRECT, 'Chromium agent');
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await expect(
      new Client({ name: 'hosted-browser', version: '1.0.0' }, { capabilities: {} }).connect(transport),
    ).rejects.toThrow();

    const page = await browser.newPage();
    // Nothing listens at the client's redirect URI: the browser's arrival there is the answer.
    let landed: URL | undefined;
    await page.route(`${REDIRECT}**`, async (route) => {
      landed = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the client' });
    });
    await page.goto(provider.authorizationUrl!.href);
    await expect(page.locator('#client-name').textContent()).resolves.toBe('Chromium agent');
    await expect(page.locator('#redirect-host').textContent()).resolves.toBe('127.0.0.1:47012');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/\/oauth\/authorize\?/);
    await page.locator('select#user').selectOption(grace.sub);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${REDIRECT}**`);
    expect(landed?.searchParams.get('code')).toBeTruthy();
    expect(landed?.searchParams.get('iss')).toBe(mcpUrl.origin);

    await transport.finishAuth(landed!.searchParams);
    const client = new Client({ name: 'hosted-browser', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    const result = (await client.callTool({ name: 'who_am_i', arguments: {} })) as { content: { text?: string }[] };
    expect(result.content.map((item) => item.text ?? '').join('\n')).toContain(grace.name);
    await client.close();
    await page.close();
  });
});
