/**
 * The browser prompter's two halves, which serving MCP uses apart: the link always goes to the
 * log, the browser opens only when a call chooses it and the user allows it.
 */
import { describe, expect, it } from 'vitest';
import { createBrowserPrompter } from '../../src/consent/index.js';
import { createLogger } from '../../src/log.js';
import type { BrowserPrompterOptions } from '../../src/consent/browser-prompter.js';

const prompt = {
  url: 'https://as.example/oauth/authorize?state=x',
  scopes: ['openid', 'courses:read'],
  newScopes: ['courses:read'],
  issuer: 'https://as.example',
};

function prompterWith(options: Partial<BrowserPrompterOptions>) {
  const opened: string[] = [];
  const printed: string[] = [];
  const prompter = createBrowserPrompter({
    logger: createLogger({ write: () => {} }),
    print: (line) => printed.push(line),
    openUrl: async (url) => void opened.push(url),
    platform: 'linux',
    env: { DISPLAY: ':0' },
    ...options,
  });
  return { prompter, opened, printed };
}

describe('browser prompter halves', () => {
  it('announce prints the link and what it adds, and opens nothing', () => {
    const { prompter, opened, printed } = prompterWith({});
    prompter.announce(prompt);
    expect(printed).toEqual([
      'school-mcp: approve access to as.example (courses:read) in your browser:',
      `  ${prompt.url}`,
    ]);
    expect(opened).toEqual([]);
  });

  it('open launches the checked link and prints nothing', async () => {
    const { prompter, opened, printed } = prompterWith({});
    expect(prompter.canOpen()).toBe(true);
    await prompter.open(prompt);
    expect(opened).toEqual([prompt.url]);
    expect(printed).toEqual([]);
  });

  it.each([
    ['--no-browser', { disabled: true }],
    ['no display', { env: {} }],
    ['an SSH session', { env: { DISPLAY: ':0', SSH_CONNECTION: '1 2 3 4' } }],
    ['CI', { env: { DISPLAY: ':0', CI: 'true' } }],
  ] as const)('BR-04 with %s it cannot open, and open does nothing', async (_case, options) => {
    const { prompter, opened, printed } = prompterWith(options);
    expect(prompter.canOpen()).toBe(false);
    await prompter.open(prompt);
    expect(opened).toEqual([]);
    expect(printed).toEqual([]);
  });

  it('BR-01 both halves refuse a link off the issuer origin', async () => {
    const { prompter, opened, printed } = prompterWith({});
    const foreign = { ...prompt, url: 'https://evil.example/authorize' };
    expect(() => prompter.announce(foreign)).toThrowError(
      expect.objectContaining({ code: 'OAUTH_BROWSER_URL_REJECTED' }),
    );
    await expect(prompter.open(foreign)).rejects.toMatchObject({ code: 'OAUTH_BROWSER_URL_REJECTED' });
    expect(opened).toEqual([]);
    expect(printed).toEqual([]);
  });
});
