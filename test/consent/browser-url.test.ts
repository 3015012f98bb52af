import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { createBrowserPrompter } from '../../src/consent/index.js';
import { canLaunchBrowser, launchableUrl } from '../../src/consent/browser-url.js';

const origin = 'https://as.example';

describe('launchableUrl', () => {
  it('BR-01 accepts an https URL on the authorization server origin', () => {
    expect(launchableUrl('https://as.example/oauth/authorize?client_id=a&scope=b%20c', origin)).toBe(
      'https://as.example/oauth/authorize?client_id=a&scope=b%20c',
    );
  });

  it.each([
    'http://example.com/phish',
    'http://as.example/oauth/authorize',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'ftp://as.example/x',
    'https://as.example.evil.example/x',
    'https://as.example@evil.example/x',
    'https://user:pw@as.example/x',
    'https://as.example/x\nother',
    'data:text/html,x',
  ])('BR-01 refuses %j', (url) => {
    expect(() => launchableUrl(url, origin)).toThrowError(
      expect.objectContaining({ code: 'OAUTH_BROWSER_URL_REJECTED' }),
    );
  });

  it.each([
    'javascript:$(calc.exe)?response_type=code',
    'https://www.$(calc.exe).com/foo',
    'https://www.example.com:$(calc.exe)/foo',
    'http://user$(calc)r:pass$(calc)word@domain.com',
    'file://c:/windows/system32/calc.exe',
  ])('BR-02 refuses the CVE-2025-6514 payload %s', (url) => {
    expect(() => launchableUrl(url, origin)).toThrow();
  });

  it.each([
    ['https://as.example/$(calc.exe)', 'https://as.example/%24%28calc.exe%29'],
    ['https://as.example/?param=$(calc.exe)', 'https://as.example/?param=%24%28calc.exe%29'],
    ['https://as.example/#$(calc)', 'https://as.example/#%24%28calc%29'],
    ["https://as.example/a?b='x';y|z`w`", 'https://as.example/a?b=%27x%27%3By%7Cz%60w%60'],
  ])('BR-02 percent-encodes shell-significant characters in %s', (url, expected) => {
    const launched = launchableUrl(url, origin);
    expect(launched).toBe(expected);
    expect(launched).not.toMatch(/[$`"'();| \n]/);
  });

  it('BR-03 random strings never pass unless they are on the allowed origin', () => {
    const alphabet = 'abc:/?#@$()`;|&=%. \'"\\hts';
    for (let index = 0; index < 1000; index += 1) {
      let candidate = '';
      for (let char = 0; char < 30; char += 1) candidate += alphabet[Math.floor(Math.random() * alphabet.length)];
      const prefixed = index % 2 === 0 ? `https://as.example/${candidate}` : candidate;
      try {
        const launched = launchableUrl(prefixed, origin);
        expect(new URL(launched).origin).toBe(origin);
        expect(launched).not.toMatch(/[$`"'();|\s]/);
      } catch (error) {
        expect(error).toMatchObject({ code: 'OAUTH_BROWSER_URL_REJECTED' });
      }
    }
  });
});

describe('browser prompter', () => {
  const prompt = {
    url: 'https://as.example/oauth/authorize?state=x',
    scopes: ['openid'],
    newScopes: ['openid'],
    issuer: 'https://as.example',
  };

  it('BR-03 hands the validated URL to the launcher as one argument and always prints it', async () => {
    const opened: unknown[][] = [];
    const printed: string[] = [];
    const prompter = createBrowserPrompter({
      logger: createLogger({ write: () => {} }),
      print: (line) => printed.push(line),
      openUrl: async (...args) => void opened.push(args),
      platform: 'linux',
      env: { DISPLAY: ':0' },
    });
    await prompter.present(prompt);
    expect(opened).toEqual([[prompt.url]]);
    expect(printed.join('\n')).toContain(prompt.url);
  });

  it('BR-01 refuses to open a URL off the issuer origin', async () => {
    const opened: string[] = [];
    const prompter = createBrowserPrompter({
      logger: createLogger({ write: () => {} }),
      print: () => {},
      openUrl: async (url) => void opened.push(url),
      platform: 'darwin',
    });
    await expect(prompter.present({ ...prompt, url: 'https://evil.example/authorize' })).rejects.toMatchObject({
      code: 'OAUTH_BROWSER_URL_REJECTED',
    });
    expect(opened).toEqual([]);
  });

  it.each([
    ['linux', {}],
    ['linux', { DISPLAY: ':0', SSH_CONNECTION: '1 2 3 4' }],
    ['darwin', { SSH_TTY: '/dev/pts/1' }],
  ] as const)(
    'BR-04 on %s with %j prints the URL and the port-forward hint instead of launching',
    async (platform, env) => {
      const opened: string[] = [];
      const printed: string[] = [];
      const prompter = createBrowserPrompter({
        logger: createLogger({ write: () => {} }),
        print: (line) => printed.push(line),
        openUrl: async (url) => void opened.push(url),
        platform,
        env,
      });
      await prompter.present(prompt);
      expect(opened).toEqual([]);
      expect(printed.join('\n')).toContain(prompt.url);
      expect(printed.join('\n')).toMatch(/ssh -L/);
    },
  );

  it('BR-04 a failing launcher is logged and the URL is still printed', async () => {
    const lines: string[] = [];
    const printed: string[] = [];
    const prompter = createBrowserPrompter({
      logger: createLogger({ write: (line) => lines.push(line) }),
      print: (line) => printed.push(line),
      openUrl: async () => {
        throw Object.assign(new Error('spawn xdg-open ENOENT'), { code: 'ENOENT' });
      },
      platform: 'win32',
    });
    await prompter.present(prompt);
    expect(printed.join('\n')).toContain(prompt.url);
    expect(lines.join('\n')).toMatch(/could not be opened/);
  });

  it('BR-04 decides from the environment alone', () => {
    expect(canLaunchBrowser('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBe(true);
    expect(canLaunchBrowser('linux', { DISPLAY: ':0', CI: 'true' })).toBe(false);
    expect(canLaunchBrowser('win32', {})).toBe(true);
  });
});
