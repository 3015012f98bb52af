/**
 * Which browser the consent-page tests drive: the one a user has. `SCHOOL_MCP_TEST_BROWSER` when
 * set, else Chrome, Chromium or Edge where their installers put them on Linux, macOS and Windows.
 * Free of vitest, so the global setup can read it too.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface BrowserSearch {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
  readonly exists: (path: string) => boolean;
}

export const HOW_TO_ENABLE_BROWSER_TESTS =
  'no browser for the consent-page tests: install Chrome, Chromium or Edge, or set SCHOOL_MCP_TEST_BROWSER to a Chromium-based browser executable';

/** Where each platform's installers put the browsers, most specific first. */
function candidates({ env, platform }: BrowserSearch): string[] {
  if (platform === 'darwin') {
    const apps = [
      'Google Chrome.app/Contents/MacOS/Google Chrome',
      'Chromium.app/Contents/MacOS/Chromium',
      'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ];
    const roots = ['/Applications', ...(env['HOME'] ? [join(env['HOME'], 'Applications')] : [])];
    return roots.flatMap((root) => apps.map((app) => `${root}/${app}`));
  }
  if (platform === 'win32') {
    const roots = [env['PROGRAMFILES'], env['PROGRAMFILES(X86)'], env['LOCALAPPDATA']].filter((root): root is string =>
      Boolean(root),
    );
    const apps = [
      'Google\\Chrome\\Application\\chrome.exe',
      'Chromium\\Application\\chrome.exe',
      'Microsoft\\Edge\\Application\\msedge.exe',
    ];
    return roots.flatMap((root) => apps.map((app) => `${root}\\${app}`));
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
    '/usr/bin/microsoft-edge-stable',
    '/opt/microsoft/msedge/msedge',
    '/snap/bin/chromium',
  ];
}

/** The browser the tests will drive, or `undefined` when this machine has none. */
export function findTestBrowser(search: BrowserSearch): string | undefined {
  const chosen = search.env['SCHOOL_MCP_TEST_BROWSER'];
  if (chosen) return chosen;
  return candidates(search).find((path) => search.exists(path));
}

export const TEST_BROWSER = findTestBrowser({ env: process.env, platform: process.platform, exists: existsSync });
