/**
 * The whole sign-in once in a real headless Chromium: the prompter opens the authorization URL,
 * the user clicks Allow on the sandbox school's consent page, the browser lands on our loopback
 * listener, and the session ends with a token.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { createSignInSession, type ConsentPrompt } from '../../src/consent/index.js';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { describeInBrowser, launchBrowser } from '../helpers/browser.js';

let browser: Browser;
let sandbox: RunningSandbox;
let dir: string;

describeInBrowser('sign-in in a real browser', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
    sandbox = await startSandbox();
    dir = await mkdtemp(join(tmpdir(), 'school-mcp-e2e-'));
  });
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('LB-07 clicking Allow on the consent page signs the session in', async () => {
    let page: Page | undefined;
    const shown: ConsentPrompt[] = [];
    const session = createSignInSession({
      schoolUrl: new URL(sandbox.url),
      storeDir: dir,
      logger: createLogger({ write: () => {} }),
      consentTimeoutMs: 25_000,
      prompter: {
        async present(prompt) {
          shown.push(prompt);
          page = await browser.newPage();
          await page.goto(prompt.url);
          await page.getByRole('button', { name: 'Allow' }).click();
        },
      },
    });
    try {
      const token = await session.accessToken({
        scopeAlternatives: [['courses:read']],
        requiredScopes: ['courses:read'],
      });
      expect(token).toMatch(/\S{16,}/);
      expect(shown).toHaveLength(1);
      await page!.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
      await expect(page!.locator('h1').textContent()).resolves.toBe('Signed in');
      expect(await page!.content()).not.toContain(new URL(page!.url()).searchParams.get('code')!);
      expect((await session.status()).user?.sub).toBeTruthy();
    } finally {
      await session.close();
    }
  });
});
