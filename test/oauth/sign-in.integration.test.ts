/**
 * The whole sign-in against the sandbox school over real HTTP: discovery, registration, consent
 * through a fake browser, code exchange, status, and what the school saw.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isOAuthError } from '../../src/oauth/index.js';
import { fakeBrowser } from './support/fake-browser.js';
import { createHarness, READ_COURSES, type Harness } from './support/harness.js';

let harness: Harness;
beforeEach(async () => {
  harness = await createHarness();
});
afterEach(async () => {
  await harness.cleanup();
});

describe('sign-in against the sandbox', () => {
  it('signs in with least privilege and returns a token the school accepts', async () => {
    const sandbox = await harness.sandbox({ autoApprove: true });
    const browser = fakeBrowser();
    const session = harness.session({ schoolUrl: new URL(sandbox.url), prompter: browser });

    const token = await session.accessToken(READ_COURSES);

    expect(token).toMatch(/\S{16,}/);
    const status = await session.status();
    expect(status).toMatchObject({ issuer: sandbox.issuer, signedIn: true, scopes: ['courses:read', 'openid', 'profile'] });
    expect(status.user?.sub).toBeTruthy();
    expect(sandbox.countRequests('/api/oauth/register', 'POST')).toBe(1);
    expect(sandbox.countRequests('/api/oauth/token', 'POST')).toBe(1);
    expect(session.grantedScopes()).toEqual(['courses:read', 'openid', 'profile']);
    expect(browser.prompts).toHaveLength(1);
    expect(browser.prompts[0]!.newScopes).toEqual(['courses:read', 'openid', 'profile']);
    expect(browser.deliveries).toEqual([200]);
    // A second call reuses the stored token: no second prompt.
    expect(await session.accessToken(READ_COURSES)).toBe(token);
    expect(browser.prompts).toHaveLength(1);
  });
});
