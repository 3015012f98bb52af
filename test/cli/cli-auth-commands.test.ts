import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runLogin, runLogout, runStatus } from '../../src/cli/index.js';
import { fakeBrowser } from '../oauth/support/fake-browser.js';
import { createHarness, type Harness } from '../oauth/support/harness.js';
import { formatStatus } from '../../src/cli/auth-commands.js';

let harness: Harness;
beforeEach(async () => {
  harness = await createHarness();
});
afterEach(async () => {
  await harness.cleanup();
});

describe('login, status, logout', () => {
  it('signs in with the asked scopes, shows the user and scopes, then signs out', async () => {
    const sandbox = await harness.sandbox({ autoApprove: true });
    const browser = fakeBrowser();
    const session = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser });
    const out: string[] = [];
    await runLogin(session, { scopes: ['courses:read', 'orders:read'] }, (line) => out.push(line));
    const text = out.join('\n');
    expect(text).toContain(`School:     ${sandbox.issuer}`);
    expect(text).toContain('Signed in:  yes');
    expect(text).toMatch(/User: {7}\S/);
    expect(text).toContain('Scopes:     courses:read openid orders:read profile');
    expect(text).toMatch(/Expires: {4}\d{4}-\d\d-\d\d .* \(in \d+ min\)/);

    await runLogin(session, {}, () => {});
    expect(browser.prompts).toHaveLength(1);

    out.length = 0;
    await runLogout(session, (line) => out.push(line));
    expect(out.join('\n')).toMatch(/Signed out/);
    out.length = 0;
    await runStatus(session, (line) => out.push(line));
    expect(out).toContain('Signed in:  no');
    expect(out.join('\n')).not.toMatch(/Scopes:/);
  });

  it('formats an unknown expiry and a user without a name', () => {
    const lines = formatStatus(
      {
        issuer: 'https://s.example',
        clientId: 'c',
        user: { sub: 'u1' },
        scopes: [],
        expiresAt: undefined,
        signedIn: true,
      },
      0,
    );
    expect(lines).toContain('User:       u1');
    expect(lines.join('\n')).toMatch(/Expires: {4}unknown/);
  });
});
