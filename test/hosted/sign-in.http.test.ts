import { afterEach, describe, expect, it } from 'vitest';
import { completeConsent, SANDBOX_STAFF } from '@school-mcp/sandbox';
import { CookieBrowser } from '../../tools/bench/cookie-browser.js';
import {
  allowAtSchoolMcp,
  authorizeUrl,
  callMcp,
  exchange,
  openConsent,
  pkce,
  registerMcpClient,
  signIn,
  startHosted,
  type Hosted,
} from '../app/support/hosted-harness.js';

let hosted: Hosted | undefined;
afterEach(async () => {
  await hosted?.close();
  hosted = undefined;
});

describe('hosted sign-in of an MCP client', () => {
  it('takes a staff member from registration through both consents to a token that speaks for them', async () => {
    hosted = await startHosted();
    const client = await registerMcpClient(hosted.base);
    const grace = SANDBOX_STAFF[1]!;
    const { code, verifier } = await signIn(hosted, client, grace.sub);
    const tokens = await exchange(hosted.base, client, code, verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: 'mcp' });
    expect(typeof tokens.body.refresh_token).toBe('string');
    const answer = await callMcp(hosted.base, String(tokens.body.access_token));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ sub: grace.sub, clientId: client.clientId });
  });
});

describe("hosted sign-in: the school's answer", () => {
  it.each([
    ['names another issuer', { wrongIssOnRedirect: 'https://mix-up.example' }],
    ['names no issuer although the school promises one', { omitIssOnRedirect: true }],
  ])('HOST-13 refuses an answer that %s, and exchanges no code', async (_label, faults) => {
    hosted = await startHosted({ sandbox: { faults } });
    const client = await registerMcpClient(hosted.base);
    const browser = new CookieBrowser();
    const { consentUrl, csrf } = await openConsent(browser, authorizeUrl(hosted.base, client, pkce().challenge));
    const callback = await completeConsent(await allowAtSchoolMcp(browser, consentUrl, csrf), 'allow', {
      user: SANDBOX_STAFF[0]!.sub,
    });
    const tokenCalls = hosted.sandbox.countRequests('/api/oauth/token');
    const answer = await browser.request(callback);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    expect(hosted.sandbox.countRequests('/api/oauth/token')).toBe(tokenCalls);
  });

  it('HOST-13 sends the client access_denied when the staff member denies at the school', async () => {
    hosted = await startHosted();
    const client = await registerMcpClient(hosted.base);
    const browser = new CookieBrowser();
    const { consentUrl, csrf } = await openConsent(browser, authorizeUrl(hosted.base, client, pkce().challenge));
    const callback = await completeConsent(await allowAtSchoolMcp(browser, consentUrl, csrf), 'deny');
    const { url } = await browser.follow(callback, (next) => next.origin === new URL(hosted!.base).origin);
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('code')).toBeNull();
  });
});
