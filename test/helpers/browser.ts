/**
 * A real headless Chromium-family browser driven by playwright-core, for the consent pages (see
 * `find-browser.ts` for which one). Without one the browser suites skip, saying how to enable
 * them; under `CI=true` they fail instead, so CI never passes by skipping. The launch flags keep
 * the browser from reaching for a network the test machine may not have.
 */
import { chromium, type Browser } from 'playwright-core';
import { HOW_TO_ENABLE_BROWSER_TESTS, TEST_BROWSER } from './find-browser.js';
import { describeNeeding } from './suite-gate.js';

/**
 * A suite that needs the browser: run where there is one, skipped with the way to enable it where
 * there is none, and failed under CI, where a skipped browser test would hide a missing install.
 */
export function describeInBrowser(name: string, body: () => void): void {
  describeNeeding(
    { available: TEST_BROWSER !== undefined, what: 'a browser to run in', howToEnable: HOW_TO_ENABLE_BROWSER_TESTS },
    name,
    body,
  );
}

export async function launchBrowser(): Promise<Browser> {
  if (!TEST_BROWSER) throw new Error(HOW_TO_ENABLE_BROWSER_TESTS);
  return chromium.launch({
    executablePath: TEST_BROWSER,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
