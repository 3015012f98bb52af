/**
 * A real headless Chromium (Debian's package) driven by playwright-core, for the consent page.
 * The flags keep Chromium from reaching for the network this machine does not have.
 */
import { chromium, type Browser } from 'playwright-core';
import { existsSync } from 'node:fs';

const CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(): string | undefined {
  return process.env.CHROMIUM_PATH ?? CHROMIUM_PATHS.find((path) => existsSync(path));
}

export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('chromium is not installed (apt-get install chromium)');
  return chromium.launch({
    executablePath,
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
