/**
 * The browser tests find a browser the way users have one, on each platform.
 */
import { describe, expect, it } from 'vitest';
import { findTestBrowser } from './find-browser.js';

const only = (present: string) => (path: string) => path === present;

describe('finding a browser for the consent-page tests', () => {
  it('takes SCHOOL_MCP_TEST_BROWSER first, whatever is installed', () => {
    expect(
      findTestBrowser({ env: { SCHOOL_MCP_TEST_BROWSER: '/opt/my/chrome' }, platform: 'linux', exists: () => true }),
    ).toBe('/opt/my/chrome');
  });

  it.each([
    ['linux', {}, '/usr/bin/chromium'],
    ['linux', {}, '/opt/google/chrome/chrome'],
    ['linux', {}, '/opt/microsoft/msedge/msedge'],
    ['darwin', {}, '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
    ['darwin', { HOME: '/Users/ada' }, '/Users/ada/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'],
    ['win32', { PROGRAMFILES: 'C:\\Program Files' }, 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'],
    [
      'win32',
      { 'PROGRAMFILES(X86)': 'C:\\Program Files (x86)' },
      'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
    ],
    [
      'win32',
      { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' },
      'C:\\Users\\ada\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe',
    ],
  ] as const)('on %s finds %s', (platform, env, path) => {
    expect(findTestBrowser({ env, platform, exists: only(path) })).toBe(path);
  });

  it('prefers Chrome to Edge when both are there', () => {
    const installed = new Set(['/usr/bin/google-chrome', '/usr/bin/microsoft-edge']);
    expect(findTestBrowser({ env: {}, platform: 'linux', exists: (path) => installed.has(path) })).toBe(
      '/usr/bin/google-chrome',
    );
  });

  it('finds nothing where nothing is installed', () => {
    expect(findTestBrowser({ env: {}, platform: 'linux', exists: () => false })).toBeUndefined();
  });
});
